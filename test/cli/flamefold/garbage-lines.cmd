# Lines that are neither perf script nor folded text: error, naming the first.
printf 'hello world\nthis is not a profile\n' > junk.txt
$TOOL junk.txt
