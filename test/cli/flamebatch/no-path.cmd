$TOOL -o out
