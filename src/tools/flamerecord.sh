#!/bin/bash
# flamerecord: perf record + the flamefold pipeline in one command.
# See man flamerecord(1). Exit status: 0 ok, 1 recording or conversion
# failed, 2 usage error.
set -u
me=flamerecord
version=@VERSION@
usage() {
  cat <<'USAGE'
Usage: flamerecord [--pid PID[,PID...] | --user USER | --all] [OPTIONS] [-- COMMAND [ARG...]]
Records with perf and converts: leaves DIR/HOST.DATE.perf.data, .perf-script.txt.gz,
.folded, .svg and .report.txt (and .html with --scope), and prints their paths.

Target (one of them, or a COMMAND after --):
  --pid PID[,PID...]    the running processes PID...
  --user USER           every process of USER
  --all                 the whole host (every CPU)
Options:
  --freq HZ             sampling frequency (default 99)
  --duration SECONDS    how long to record (default 60; with a COMMAND:
                        until it ends, unless given)
  --call-graph MODE     fp (frame pointers, default), dwarf or lbr
  --off-cpu             record the time threads spend blocked (every
                        sched:sched_switch) instead of CPU samples; the
                        graph's widths are microseconds off the CPU
  --malloc              record every malloc of libc with its size (a uprobe
                        added for the recording and always removed); the
                        graph's widths are bytes requested
  --icicle              draw an icicle graph (flamesvg --inverted)
  --chart               draw a flame chart (flamesvg --flamechart)
  --scope               also write the FlameScope page (flamescope): the
                        heat map of the samples by time, and the flame
                        graph of a range selected in it
  -o DIR                where to write (default: the current directory)
  -h, --help            print this help and exit
  -V, --version         print the version and exit
Fold options (flamefold's, passed on; see flamefold --help):
  --tid --kernel --jit --addrs --srcline --inline --context --modern
  --event-filter EVENT  --include REGEX  --exclude REGEX  --symfs DIR
  --kallsyms FILE  --max-line-length BYTES  --max-stack-depth N
  --max-frame-length BYTES
  (flamefold's --pid and --all name the target here; --tid keeps the PID
  in the process frame, --kernel --jit is flamefold's --all.)
Ctrl-C ends the recording early; what was recorded is still converted.
USAGE
}
die_usage() { echo "$me: error: $1" >&2; echo "Try 'flamerecord --help' for more information." >&2; exit 2; }
die() { echo "$me: error: $1" >&2; exit 1; }

pid="" user="" all=0 freq="" duration="" cg=fp icicle=0 chart=0 scope=0 dir=. cmd=()
measure=cpu
fold_args=() script_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tid|--kernel|--jit|--addrs|--inline|--context|--modern) fold_args+=("$1"); shift ;;
    --srcline) fold_args+=("$1"); script_args+=(-F +srcline); shift ;;
    --event-filter|--include|--exclude|--symfs|--kallsyms|--max-line-length|--max-stack-depth|--max-frame-length)
      [ $# -ge 2 ] || die_usage "$1 needs a value"; set -- "$1=$2" "${@:3}" ;;
    --event-filter=*|--include=*|--exclude=*|--max-line-length=*|--max-stack-depth=*|--max-frame-length=*)
      fold_args+=("$1"); shift ;;
    --symfs=*|--kallsyms=*) fold_args+=("$1"); script_args+=("$1"); shift ;;
    --pid) [ $# -ge 2 ] || die_usage "--pid needs a PID list"; pid=$2; shift 2 ;;
    --pid=*) pid=${1#*=}; shift ;;
    --user) [ $# -ge 2 ] || die_usage "--user needs a user name"; user=$2; shift 2 ;;
    --user=*) user=${1#*=}; shift ;;
    --all) all=1; shift ;;
    --freq) [ $# -ge 2 ] || die_usage "--freq needs a number"; freq=$2; shift 2 ;;
    --freq=*) freq=${1#*=}; shift ;;
    --duration) [ $# -ge 2 ] || die_usage "--duration needs seconds"; duration=$2; shift 2 ;;
    --duration=*) duration=${1#*=}; shift ;;
    --call-graph) [ $# -ge 2 ] || die_usage "--call-graph needs fp, dwarf or lbr"; cg=$2; shift 2 ;;
    --call-graph=*) cg=${1#*=}; shift ;;
    --off-cpu|--malloc)
      [ $measure = cpu ] || [ $measure = "${1#--}" ] || die_usage "--off-cpu and --malloc exclude each other"
      measure=${1#--}; shift ;;
    --icicle) icicle=1; shift ;;
    --chart) chart=1; shift ;;
    --scope) scope=1; shift ;;
    -o) [ $# -ge 2 ] || die_usage "-o needs a folder"; dir=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -V|--version) echo "flamerecord $version"; exit 0 ;;
    --) shift; cmd=("$@"); break ;;
    *) die_usage "unknown argument: $1" ;;
  esac
done

targets=0
[ -n "$pid" ] && targets=$((targets + 1))
[ -n "$user" ] && targets=$((targets + 1))
[ $all = 1 ] && targets=$((targets + 1))
[ ${#cmd[@]} -gt 0 ] && targets=$((targets + 1))
[ $targets = 1 ] || die_usage "give exactly one target: --pid, --user, --all or -- COMMAND"
if [ $measure != cpu ]; then
  # Every sched_switch or malloc is recorded: there is no rate to choose.
  [ -z "$freq" ] || die_usage "--freq does not apply to --$measure (every event is recorded)"
  [ $scope = 0 ] || die_usage "--scope does not apply to --$measure"
fi
freq=${freq:-99}
[[ "$freq" =~ ^[1-9][0-9]*$ ]] || die_usage "--freq takes a whole number of Hz"
[ -z "$duration" ] || [[ "$duration" =~ ^[0-9]+([.][0-9]+)?$ ]] || die_usage "--duration takes seconds"
[ -n "$pid" ] && { [[ "$pid" =~ ^[0-9]+(,[0-9]+)*$ ]] || die_usage "--pid takes PID[,PID...]"; }
case "$cg" in
  fp) cg_args=(-g) ;;
  dwarf|lbr) cg_args=(--call-graph "$cg") ;;
  *) die_usage "--call-graph takes fp, dwarf or lbr" ;;
esac
# What is measured: the perf record events, the fold and graph options, the
# graph's title and the unit of its widths.
case $measure in
  cpu)
    event_args=(-F "$freq") rate="$freq Hz" measured="" svg_measure=() ;;
  off-cpu)
    # Every switch of the target's threads (-c 1), with its stack. The
    # switch-in records close a wait when the thread runs again; system-wide
    # the sched_switch events' next_pid already shows every switch-in.
    event_args=(-e sched:sched_switch -c 1)
    [ $all = 1 ] || event_args+=(--switch-events)
    fold_args+=(--off-cpu)
    # The fields, side-band records and ns times flamefold --off-cpu reads.
    script_args=(--ns -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso
                 --show-switch-events --show-task-events "${script_args[@]}")
    rate="every switch" measured="Off-CPU time (us)"
    svg_measure=(--colors io --countname us) ;;
  malloc)
    event_args=(-e probe_libc:malloc -c 1)
    fold_args+=(--weight bytes)
    rate="every call" measured="malloc bytes"
    svg_measure=(--colors mem --countname bytes) ;;
esac

# The tools installed beside this script (or FLAMEFOLD_BIN).
bin=${FLAMEFOLD_BIN:-$(cd "$(dirname "$0")" && pwd)}
tools=(flamefold flamesvg flamereport)
[ $scope = 1 ] && tools+=(flamescope)
for t in "${tools[@]}"; do
  [ -x "$bin/$t" ] || die "$bin/$t not found (set FLAMEFOLD_BIN to the folder of the flamefold tools)"
done
# The fold options are checked by flamefold itself, before recording.
why=$("$bin/flamefold" -q "${fold_args[@]}" < /dev/null 2>&1 >/dev/null)
[ $? != 2 ] || die_usage "$(sed -n 's/^flamefold: error: //p' <<< "$why" | head -n 1)"

command -v perf >/dev/null 2>&1 ||
  die "perf is not installed: on Debian, apt-get install linux-perf"
# perf_event_paranoid decides what an unprivileged user may record.
if [ "$(id -u)" != 0 ] && [ -r /proc/sys/kernel/perf_event_paranoid ]; then
  level=$(cat /proc/sys/kernel/perf_event_paranoid)
  if { [ $all = 1 ] || [ -n "$user" ]; } && [ "$level" -gt 0 ]; then
    die "recording --all or --user needs root or kernel.perf_event_paranoid <= 0 (it is $level here): run as root, or: sudo sysctl kernel.perf_event_paranoid=0"
  fi
  if [ "$level" -gt 2 ]; then
    die "kernel.perf_event_paranoid is $level: only root may use perf here; run as root, or: sudo sysctl kernel.perf_event_paranoid=2"
  fi
fi

made_dir=0
[ -d "$dir" ] || made_dir=1
mkdir -p "$dir" || die "cannot create $dir"
host=$(hostname -s 2>/dev/null || echo host)
base=$dir/$host.$(date +%Y%m%d-%H%M%S)
target=()
who=""
[ -n "$pid" ] && target=(-p "$pid") && desc="PID $pid"
[ -n "$user" ] && target=(-u "$user") && desc="user $user"
[ $all = 1 ] && target=(-a) && desc="the whole host"
if [ ${#cmd[@]} -gt 0 ]; then
  desc=${cmd[*]} who="'${cmd[*]}'"
  if [ -n "$duration" ]; then what=(timeout --foreground -s INT "$duration" "${cmd[@]}"); else what=("${cmd[@]}"); fi
else
  what=(sleep "${duration:-60}")
fi
who=${who:-$desc}
log=$(mktemp) && script_log=$(mktemp) && perf_pid_file=$(mktemp) ||
  die "cannot create a temporary file"
probe_added=0
# --malloc's uprobe goes with flamerecord, however it ends: at the end of
# the recording, on an error, on SIGTERM or SIGHUP (which end this script
# at once and run this trap; perf, stopped first, would keep the probe
# busy) and on Ctrl-C.
trap 'remove_probe; rm -f "$log" "$script_log" "$perf_pid_file"' EXIT
# Stops perf record if it still runs (SIGINT: it writes what it has).
stop_perf() {
  local p
  p=$(cat "$perf_pid_file" 2>/dev/null)
  [ -n "$p" ] && kill -INT "$p" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || return 0; sleep 0.1; done
}
remove_probe() {
  [ $probe_added = 1 ] || return 0
  probe_added=0
  stop_perf
  perf probe -q --del probe_libc:malloc ||
    echo "$me: warning: the uprobe probe_libc:malloc is left: remove it with perf probe --del probe_libc:malloc" >&2
}
# The libc whose malloc the target calls: that of the first PID, else this
# script's own (the host's).
libc_of() {
  awk '$NF ~ /\/libc\.so\.6$/ { print $NF; exit }' "/proc/$1/maps" 2>/dev/null
}
add_malloc_probe() {
  local libc
  libc=$(libc_of "${pid%%,*}")
  [ -n "$libc" ] || libc=$(libc_of $$)
  [ -n "$libc" ] || die "libc.so.6 not found for the malloc uprobe"
  [ -z "$(perf probe -l probe_libc:malloc 2>/dev/null)" ] ||
    die "the uprobe probe_libc:malloc exists already (not flamerecord's to remove): remove it with perf probe --del probe_libc:malloc"
  probe_added=1  # before: a Ctrl-C may end perf probe after it added it
  perf probe -q -x "$libc" 'malloc bytes=%di:u64' ||
    { probe_added=0; die "could not add the uprobe on malloc in $libc (see perf's message above)"; }
}
# Removes what a failed recording left, so that no empty artifact remains.
discard() {
  rm -f "$base.perf.data" "$base.perf-script.txt.gz" "$base.folded" "$base.svg" "$base.report.txt" "$base.html"
  [ $made_dir = 0 ] || rmdir "$dir" 2>/dev/null
}

# perf's messages (and the command's own standard error) reach the user as
# they come, less perf's "[ perf record: ...]" progress lines; a copy is kept
# to explain a failure. Ctrl-C reaches perf, which stops and writes what it
# has; this script keeps going (a handler, not an ignore, so that perf still
# gets the signal), and so does the filter (which ignores it).
interrupted=0
trap 'interrupted=1' INT
[ $measure = malloc ] && add_malloc_probe
echo "$me: recording ${measured:+$measured of }$who at $rate into $base.perf.data (Ctrl-C to stop early)" >&2
start=$(date +%s.%N)
# perf's PID goes to $perf_pid_file, for stop_perf.
{ (echo "$BASHPID" > "$perf_pid_file"
   exec perf record "${event_args[@]}" "${cg_args[@]}" -o "$base.perf.data" "${target[@]}" -- "${what[@]}") 2>&1 1>&3 3>&- |
    (trap '' INT; tee "$log" | grep --line-buffered -v '^\[ perf record: ' >&2); } 3>&1
rc=${PIPESTATUS[0]}
: > "$perf_pid_file"
remove_probe
# perf exits with the command's status, 130 when Ctrl-C ended it; bash runs
# the trap only when a child dies of the signal, which perf does not.
[ $rc = 130 ] && interrupted=1
end=$(date +%s.%N)
trap - INT
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
record_failed() {
  discard
  if grep -qiE "permission|paranoid|not permitted" "$log"; then
    die "perf may not record here: run as root, or lower kernel.perf_event_paranoid (see perf's message above)"
  fi
  die "perf record failed (status $rc): see perf's message above"
}
[ -s "$base.perf.data" ] || record_failed
[ $interrupted = 1 ] && echo "$me: interrupted: converting what was recorded" >&2

# perf record exits with the command's status, so a failed perf record shows
# only in a recording perf script cannot read: its message then is perf
# record's, above; otherwise perf script's own is passed through.
set -o pipefail
if ! perf script "${script_args[@]}" -i "$base.perf.data" 2> "$script_log" | gzip -c > "$base.perf-script.txt.gz"; then
  [ $rc != 0 ] && record_failed
  cat "$script_log" >&2
  discard
  die "perf script failed on $base.perf.data"
fi
cat "$script_log" >&2
if [ $rc != 0 ] && [ $interrupted = 0 ] && { [ -z "$duration" ] || [ $rc != 124 ]; }; then
  echo "$me: warning: $who exited with status $rc" >&2
fi
# One event line per sample in the transcript (the folded counts may be
# periods, not samples; --off-cpu's side-band records are no samples).
samples=$(gzip -dc "$base.perf-script.txt.gz" | grep -v ' PERF_RECORD_' | grep -c '^[^[:space:]#]')
if [ "$samples" = 0 ]; then
  discard
  case $measure in
    cpu) die "no samples were recorded in $secs s of $who: it may have ended before the first sample or not run on a CPU (try a higher --freq or a longer --duration)" ;;
    off-cpu) die "no sched_switch was recorded in $secs s of $who: it did not block nor yield the CPU" ;;
    malloc) die "no malloc call was recorded in $secs s of $who" ;;
  esac
fi

"$bin/flamefold" "${fold_args[@]}" "$base.perf-script.txt.gz" > "$base.folded" || { rm -f "$base.folded"; die "flamefold failed"; }
if [ ! -s "$base.folded" ]; then
  rm -f "$base.folded"
  die "no stack was left after folding (see the fold options): the recording is kept in $base.perf.data"
fi
# perf evlist ends a tracepoint's list with "# Tip: use 'perf evlist
# --trace-fields' ...": only the event names are kept.
event=$(perf evlist -i "$base.perf.data" 2>/dev/null | grep -v '^#' | paste -sd, -)
if [ $measure = cpu ]; then
  title="$desc: ${event:-unknown event}, $secs s at $freq Hz"
else
  title="$desc: $measured, $secs s"
fi
recorded="recorded by flamerecord on $host at $(date -r "$base.perf.data" '+%Y-%m-%d %H:%M:%S %Z')"
svg_args=()
[ $icicle = 1 ] && svg_args+=(--inverted)
[ $chart = 1 ] && svg_args+=(--flamechart)
"$bin/flamesvg" "${svg_measure[@]}" "${svg_args[@]}" --title "$title" --subtitle "$recorded" "$base.folded" > "$base.svg" ||
  { rm -f "$base.svg"; die "flamesvg failed"; }
{
  echo "Recorded: $desc"
  echo "Event: ${event:-unknown}, $rate, call graph $cg"
  [ -z "$measured" ] || echo "Measured: $measured"
  echo "Duration: $secs s, $samples samples"
  echo "Host: $host, $(date -r "$base.perf.data" '+%Y-%m-%d %H:%M:%S %Z')"
  echo
  # Folded stacks carry no unit: off-CPU time and bytes are reported from
  # the transcript, folded again, which names them.
  if [ $measure = cpu ]; then
    "$bin/flamereport" "$base.folded"
  else
    "$bin/flamereport" "${fold_args[@]}" "$base.perf-script.txt.gz"
  fi
} > "$base.report.txt" || { rm -f "$base.report.txt"; die "flamereport failed"; }
outputs=(perf.data perf-script.txt.gz folded svg report.txt)
if [ $scope = 1 ]; then
  "$bin/flamescope" -q "${fold_args[@]}" --title "$title" -o "$base.html" "$base.perf-script.txt.gz" ||
    { rm -f "$base.html"; die "flamescope failed"; }
  outputs+=(html)
fi
echo "$me: recorded $samples samples of ${event:-unknown event} in $secs s of $who" >&2
for ext in "${outputs[@]}"; do
  echo "$base.$ext"
done
