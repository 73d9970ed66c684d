$TOOL /nonexistent/perf.txt
