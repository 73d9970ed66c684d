printf 'pp 1 1.0: 1 cycles:\n\tffff a (m)\n\n' > in.txt
$TOOL -o out.folded in.txt && cat out.folded
$TOOL -o /nonexistent/dir/out in.txt
