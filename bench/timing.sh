# Helpers sourced by the perf.data benchmarks (bench-perf-data.sh,
# bench-dwarf.sh). They use $out (the folder for scratch files), $fold
# (flamefold) and $perl_script (stackcollapse-perf.pl).

# t CMD: wall seconds, then CPU seconds (user + system, children included)
# of the shell command CMD, timed by bash's `time` keyword around it alone
# (milliseconds; CMD's own stderr is dropped). Until session 28 the times
# came from two date(1) processes around /usr/bin/time around `sh -c CMD`:
# starting those added 4-6 ms to every command (`/bin/true` took 0.005 s), a
# fourteenth of a 70 ms fold and nothing of a 1.5 s pipeline, so the fold's
# ratios read 6-8% low. Now `/bin/true` takes 0.001 s, its own start.
t() {
  local TIMEFORMAT='%3R %3U %3S'
  { time eval "$1" 2> /dev/null; } 2> "$out/time"
  awk '{ printf "%.4f %.3f", $1, $2 + $3 }' "$out/time"
}

# stats X...: "median (min-max)" of the numbers, with $STATS_FORMAT's
# decimals (default %.3f: milliseconds of seconds).
stats() {
  printf '%s\n' "$@" | sort -g | awk -v f="${STATS_FORMAT:-%.3f}" '{ v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf f " (" f "-" f ")", m, v[1], v[NR] }'
}

ratio() { awk "BEGIN { printf \"%.1f\", $1 / $2 }"; }

# weight WANT GOT: the share of WANT's sample weight that GOT folds to the
# same stacks, in percent.
weight() {
  awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); want[$0] += n; total += n; next }
       { n = $NF; sub(/ [0-9]+$/, ""); got[$0] += n }
       END { for (k in want) same += (got[k] < want[k] ? got[k] : want[k])
             printf "%.2f", total ? 100 * same / total : 100 }' "$1" "$2"
}

# compare LABEL DATA [OPTIONS]: $RUNS rounds (default 3) of `flamefold
# OPTIONS DATA` and `perf script -i DATA | stackcollapse-perf.pl OPTIONS`,
# one after the other; prints the median and range of each one's wall time,
# CPU time and ratio, the share of the weight folded to identical stacks,
# and a last line "LABEL: Nx ..." for a summary. Returns 1 below 100%.
compare() {
  local label=$1 data=$2 opts=${3:-} i w c
  local fw=() fc=() pw=() pc=() rw=() rc=()
  for i in $(seq "${RUNS:-3}"); do
    read -r w c <<< "$(t "\"$fold\" -q $opts \"$data\" > \"$out/fold.txt\"")"
    fw+=("$w"); fc+=("$c")
    read -r w c <<< "$(t "perf script -i \"$data\" 2>/dev/null | perl \"$perl_script\" $opts > \"$out/perl.txt\" 2>/dev/null")"
    pw+=("$w"); pc+=("$c")
    rw+=("$(ratio "$w" "${fw[-1]}")"); rc+=("$(ratio "$c" "${fc[-1]}")")
  done
  echo "flamefold $opts perf.data: $(stats "${fw[@]}") s wall, $(stats "${fc[@]}") s CPU"
  echo "perf script | stackcollapse-perf.pl $opts: $(stats "${pw[@]}") s wall, $(stats "${pc[@]}") s CPU"
  local same
  same=$(weight "$out/perl.txt" "$out/fold.txt")
  echo "$same% of the sample weight in identical stacks"
  echo "$label: $(STATS_FORMAT=%.1f stats "${rw[@]}")x wall, $(STATS_FORMAT=%.1f stats "${rc[@]}")x CPU faster (median (range) of ${RUNS:-3} runs)"
  awk "BEGIN { exit !($same < 100) }" && return 1
  return 0
}
