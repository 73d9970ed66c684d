$TOOL .
