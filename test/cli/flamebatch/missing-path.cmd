$TOOL -o out /nonexistent/archive
