# shellcheck shell=bash
# bench/lib.sh: what the benchmark scripts share, sourced by each of them.
#
# Every command timed runs from the repository's root with the tools under test first on PATH
# (copies of BUILD_DIR's, so that a build running meanwhile cannot change them between runs), so
# the command a script prints is the command it ran. Environment:
#   BUILD_DIR       the meson build folder (default: build/ at the root)
#   FLAMEGRAPH_DIR  a FlameGraph checkout for the Perl scripts (default /tmp/FlameGraph)
#   INFERNO_DIR     the folder of inferno-collapse-perf and inferno-flamegraph
#                   (default bench/out/inferno, where build-inferno.sh puts them)
#   RUNS            timed rounds per command (default 5); PERL_RUNS caps the Perl script's (default 3)
#   SEED            the generator's seed (default 1)
#   BENCH_RESULTS   a file that gets one tab-separated line per figure and check (bench/run.sh
#                   sets it and makes RESULTS.md from the lines)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$root/build}
FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}
INFERNO_DIR=${INFERNO_DIR:-$root/bench/out/inferno}
RUNS=${RUNS:-5}
PERL_RUNS=${PERL_RUNS:-3}
SEED=${SEED:-1}
failed=0

# setup NAME TOOL...: $out becomes bench/out/NAME (made if missing), each TOOL of BUILD_DIR is
# copied into $out/bin, which goes first on PATH (inferno's folder last), and the shell moves to
# the repository's root. Exits 1 when a tool is not built.
setup() {
  out=$root/bench/out/$1
  shift
  mkdir -p "$out/bin"
  local tool
  for tool in "$@"; do
    cp "$BUILD_DIR/src/tools/$tool" "$out/bin/$tool" 2> /dev/null ||
      { echo "bench: error: $BUILD_DIR/src/tools/$tool is not built" >&2; exit 1; }
  done
  PATH=$out/bin:$PATH
  if have_inferno; then PATH=$PATH:$INFERNO_DIR; fi
  cd "$root" || exit 1
}

# have_perl SCRIPT: whether the FlameGraph checkout holds SCRIPT (stackcollapse-perf.pl, ...).
have_perl() { [ -f "$FLAMEGRAPH_DIR/$1" ]; }
have_inferno() { [ -x "$INFERNO_DIR/inferno-collapse-perf" ] && [ -x "$INFERNO_DIR/inferno-flamegraph" ]; }

# emit FIELD...: one tab-separated line into $BENCH_RESULTS, when it is set.
emit() {
  if [ -n "${BENCH_RESULTS:-}" ]; then
    local IFS=$'\t'
    printf '%s\n' "$*" >> "$BENCH_RESULTS"
  fi
}

# group TITLE DESCRIPTION: the figures measured next belong to TITLE (one table of RESULTS.md).
group() {
  group_title=$1
  echo "== $1: $2"
  emit GROUP "$1" "$2"
}

# check TEXT COMMAND...: runs COMMAND and reports TEXT as met or failed; a failure makes the
# script exit 1 at the end (finish).
check() {
  local text=$1 result=ok
  shift
  "$@" || { result=FAILED; failed=1; }
  echo "check $result: $text"
  emit CHECK "$group_title" "$result" "$text"
}

# note TEXT: a remark on this group's figures (a command left out and why).
note() {
  echo "note: $1"
  emit NOTE "$group_title" "$1"
}

finish() { exit "$failed"; }

# t CMD: "WALL CPU" in seconds of the shell command CMD, timed by bash's time keyword around CMD
# alone (no process of the timer's own starts inside the time); CMD's stderr is dropped. CPU time
# is user plus system, of every process CMD runs.
t() {
  local TIMEFORMAT='%3R %3U %3S'
  { time eval "$1" 2> /dev/null; } 2> "$out/time"
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$out/time"
}

# peak_rss CMD: the peak RSS in KiB of the largest process of the shell command CMD, from one run
# under time(1); "-" without /usr/bin/time.
peak_rss() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$out/rss" bash -c "$1" 2> /dev/null
    tail -n 1 "$out/rss"
  else
    bash -c "$1" 2> /dev/null
    echo -
  fi
}

# spread X...: "MEDIAN MIN MAX" of the numbers.
spread() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%.3f %.3f %.3f", m, v[1], v[NR] }'
}

# ratio A B: A / B with one decimal, "-" when either is missing.
ratio() {
  if [ -z "$1" ] || [ -z "$2" ]; then echo -; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'
}

# measure NAME CMD [NAME CMD]...: times each shell command CMD, its standard output going to
# $out/NAME.out (a fresh file each run: truncating the last run's output would be timed too).
# First one untimed round under time(1) gives each command's peak RSS (and warms the page cache);
# then $RUNS rounds run the commands one after the other, so that a host whose speed drifts
# weighs on all of them alike (the NAME perl runs in the first $PERL_RUNS rounds only). NAME
# perl is the Perl script, inferno is inferno, scale a command shown for scale only, and of the
# others (flamefold's) the first is the group's main figure and the rest variants. Prints each
# command's median and range of wall time, median CPU time and peak RSS, with the main and the
# variants' ratios to perl and inferno (their median wall times over its).
measure() {
  local names=() cmds=() rss=() walls=() cpus=() i round w c
  while [ $# -ge 2 ]; do names+=("$1"); cmds+=("$2"); shift 2; done
  for i in "${!names[@]}"; do
    rm -f "$out/${names[$i]}.out"
    rss[i]=$(peak_rss "${cmds[$i]} > '$out/${names[$i]}.out'")
  done
  for round in $(seq "$RUNS"); do
    for i in "${!names[@]}"; do
      if [ "${names[$i]}" = perl ] && [ "$round" -gt "$PERL_RUNS" ]; then continue; fi
      rm -f "$out/${names[$i]}.out"
      read -r w c <<< "$(t "${cmds[$i]} > '$out/${names[$i]}.out'")"
      walls[i]+=" $w"
      cpus[i]+=" $c"
    done
  done
  local med=() kinds=() perl_med="" inferno_med="" main_seen=""
  # shellcheck disable=SC2086  # walls[i] and cpus[i] are lists of numbers, one word each
  for i in "${!names[@]}"; do
    read -r "med[i]" _ _ <<< "$(spread ${walls[i]})"
    case ${names[$i]} in
      perl) kinds[i]=perl; perl_med=${med[i]} ;;
      inferno) kinds[i]=inferno; inferno_med=${med[i]} ;;
      scale) kinds[i]=scale ;;
      *) kinds[i]=${main_seen:+variant}; kinds[i]=${kinds[i]:-main}; main_seen=1 ;;
    esac
  done
  local lo hi cpu runs vs_perl vs_inferno mib speed
  # shellcheck disable=SC2086
  for i in "${!names[@]}"; do
    read -r _ lo hi <<< "$(spread ${walls[i]})"
    read -r cpu _ _ <<< "$(spread ${cpus[i]})"
    runs=$(wc -w <<< "${walls[i]}")
    vs_perl=- vs_inferno=-
    if [ "${kinds[i]}" = main ] || [ "${kinds[i]}" = variant ]; then
      vs_perl=$(ratio "$perl_med" "${med[i]}")
      vs_inferno=$(ratio "$inferno_med" "${med[i]}")
    fi
    mib=-
    [ "${rss[i]}" = - ] || mib=$(awk -v k="${rss[i]}" 'BEGIN { printf "%.1f", k / 1024 }')
    speed=""
    [ "$vs_perl" = - ] || speed+=", ${vs_perl}x the Perl script's speed"
    [ "$vs_inferno" = - ] || speed+=", ${vs_inferno}x inferno's"
    printf '%-8s %7.3f s (%.3f-%.3f, %d runs) %7.3f s CPU %8s MiB peak%s: %s\n' \
      "${kinds[i]}" "${med[i]}" "$lo" "$hi" "$runs" "$cpu" "$mib" "$speed" "${cmds[i]}"
    emit BENCH "$group_title" "${kinds[i]}" "${med[i]}" "$lo" "$hi" "$cpu" "$mib" "$runs" \
      "$vs_perl" "$vs_inferno" "${cmds[i]}"
  done
}

# check_weight: checks that flamefold's fold ($out/fold.out) gives all of the Perl pipeline's
# sample weight ($out/perl.out) the same stacks; the check's text gives the share.
check_weight() {
  local same
  same=$(awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); want[$0] += n; total += n; next }
       { n = $NF; sub(/ [0-9]+$/, ""); got[$0] += n }
       END { for (k in want) same += (got[k] < want[k] ? got[k] : want[k])
             printf "%.2f", total ? 100 * same / total : 100 }' "$out/perl.out" "$out/fold.out")
  check "$same% of the sample weight folds to the stacks the Perl pipeline gives" [ "$same" = 100.00 ]
}

# recording DATA: "DATA: SIZE, N samples" of a perf.data file.
recording() {
  echo "$1: $(du -h "$1" | cut -f1), $(perf script -i "$1" -F comm 2> /dev/null | wc -l) samples"
}

# measure_recording DATA [--inline]: times `flamefold -q [--inline] DATA` against
# `perf script -i DATA | stackcollapse-perf.pl [--inline]` and, without --inline (inferno has
# none), against `perf script -i DATA | inferno-collapse-perf`, with `perf script` alone for
# scale; then checks that flamefold gives all of the pipeline's sample weight the same stacks.
measure_recording() {
  local data=$1 option=${2:-}
  local commands=(fold "flamefold -q ${option:+$option }$data")
  if [ -z "$option" ]; then
    commands+=(scale "perf script -i $data")
    if have_inferno; then commands+=(inferno "perf script -i $data | inferno-collapse-perf"); fi
  fi
  if have_perl stackcollapse-perf.pl; then
    commands+=(perl "perf script -i $data | perl $FLAMEGRAPH_DIR/stackcollapse-perf.pl${option:+ $option}")
  fi
  measure "${commands[@]}"
  if have_perl stackcollapse-perf.pl; then check_weight; fi
}

# same_lines A B: how many lines of folded file B are also lines of A ("N of M lines").
same_lines() {
  echo "$(comm -12 <(LC_ALL=C sort "$1") <(LC_ALL=C sort "$2") | wc -l) of $(wc -l < "$2") lines"
}

# transcript SHAPE SIZE_MB: prints the path (from the root) of gen-perf-script.py's transcript of
# that shape and size with $SEED, generating it into bench/out/ when missing.
transcript() {
  local path=bench/out/perf-script-$1-${2}MB-seed$SEED.txt
  if [ ! -s "$root/$path" ]; then
    echo "generating $path ..." >&2
    mkdir -p "$root/bench/out"
    python3 "$root/bench/gen-perf-script.py" --size-mb "$2" --seed "$SEED" --shape "$1" \
      -o "$root/$path.tmp" && mv "$root/$path.tmp" "$root/$path" || return 1
  fi
  echo "$path"
}

# folded_transcript SHAPE SIZE_MB: prints the path of flamefold's fold of that transcript, made
# beside it (with flamefold on PATH) when missing or older than the transcript.
folded_transcript() {
  local text
  text=$(transcript "$1" "$2") || return 1
  local folded=${text%.txt}.folded
  if [ ! -s "$root/$folded" ] || [ "$root/$folded" -ot "$root/$text" ]; then
    flamefold -q "$root/$text" > "$root/$folded.tmp" && mv "$root/$folded.tmp" "$root/$folded" ||
      return 1
  fi
  echo "$folded"
}
