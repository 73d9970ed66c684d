# --max-frame-length: longer names are cut at a UTF-8 character boundary (the
# 9th byte would split "é"), in frames and command names alike; each cut is
# counted in the input's one warning.
printf 'p;ab\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9;x 2\nlongcommandname;main 1\n' > names.folded
$TOOL --max-frame-length 9 names.folded | od -c | sed 's/  */ /g'
printf 'longcommandname 1 [000] 1.0: 1 cycles:\n\t1 averylongfunction (m)\n\n' > names.txt
$TOOL --max-frame-length=6 names.txt
