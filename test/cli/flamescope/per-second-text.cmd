# The samples of each second, against a count made here from the header
# lines' times: whole seconds from the second of the first sample.
in=$TESTDATA/example/example-perf.txt.gz
zcat "$in" | awk '
  /^[^\t#]/ && match($0, / [0-9]+\.[0-9]+: /) {
    t = substr($0, RSTART + 1, RLENGTH - 3); s = int(t)
    n[s]++; if (first == "" || s < first) first = s; if (s > last) last = s
  }
  END { print "SECOND SAMPLES"; for (s = first; s <= last; s++) print s - first, n[s] + 0 }' > want
"$TOOL" --per-second "$in" > got
cmp want got && echo same && sed -n '1,3p;$p' got
