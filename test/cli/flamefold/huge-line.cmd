# A 20 MB line is skipped and counted; with nothing else, there are no samples.
python3 -c "print('x' * 20_000_000)" > huge.txt
$TOOL huge.txt
