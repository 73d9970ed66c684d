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
.folded, .svg and .report.txt, and prints their paths.

Target (one of them, or a COMMAND after --):
  --pid PID[,PID...]    the running processes PID...
  --user USER           every process of USER
  --all                 the whole host (every CPU)
Options:
  --freq HZ             sampling frequency (default 99)
  --duration SECONDS    how long to record (default 60; with a COMMAND:
                        until it ends, unless given)
  --call-graph MODE     fp (frame pointers, default), dwarf or lbr
  --icicle              draw an icicle graph (flamesvg --inverted)
  --chart               draw a flame chart (flamesvg --flamechart)
  -o DIR                where to write (default: the current directory)
  -h, --help            print this help and exit
  -V, --version         print the version and exit
Ctrl-C ends the recording early; what was recorded is still converted.
USAGE
}
die_usage() { echo "$me: error: $1" >&2; echo "Try 'flamerecord --help' for more information." >&2; exit 2; }
die() { echo "$me: error: $1" >&2; exit 1; }

pid="" user="" all=0 freq=99 duration="" cg=fp icicle=0 chart=0 dir=. cmd=()
while [ $# -gt 0 ]; do
  case "$1" in
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
    --icicle) icicle=1; shift ;;
    --chart) chart=1; shift ;;
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
[[ "$freq" =~ ^[1-9][0-9]*$ ]] || die_usage "--freq takes a whole number of Hz"
[ -z "$duration" ] || [[ "$duration" =~ ^[0-9]+([.][0-9]+)?$ ]] || die_usage "--duration takes seconds"
[ -n "$pid" ] && { [[ "$pid" =~ ^[0-9]+(,[0-9]+)*$ ]] || die_usage "--pid takes PID[,PID...]"; }
case "$cg" in
  fp) cg_args=(-g) ;;
  dwarf|lbr) cg_args=(--call-graph "$cg") ;;
  *) die_usage "--call-graph takes fp, dwarf or lbr" ;;
esac

command -v perf >/dev/null 2>&1 ||
  die "perf is not installed: on Debian, apt-get install linux-perf"
# The tools installed beside this script (or FLAMEFOLD_BIN).
bin=${FLAMEFOLD_BIN:-$(cd "$(dirname "$0")" && pwd)}
for t in flamefold flamesvg flamereport; do
  [ -x "$bin/$t" ] || die "$bin/$t not found (set FLAMEFOLD_BIN to the folder of the flamefold tools)"
done

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

mkdir -p "$dir" || die "cannot create $dir"
base=$dir/$(hostname -s 2>/dev/null || echo host).$(date +%Y%m%d-%H%M%S)
target=()
[ -n "$pid" ] && target=(-p "$pid")
[ -n "$user" ] && target=(-u "$user")
[ $all = 1 ] && target=(-a)
if [ ${#cmd[@]} -gt 0 ]; then
  if [ -n "$duration" ]; then what=(timeout --foreground -s INT "$duration" "${cmd[@]}"); else what=("${cmd[@]}"); fi
else
  what=(sleep "${duration:-60}")
fi

# Ctrl-C reaches perf, which stops and writes what it has; this script keeps
# going (a handler, not an ignore, so that perf still gets the signal).
interrupted=0
trap 'interrupted=1' INT
echo "$me: recording at $freq Hz into $base.perf.data (Ctrl-C to stop early)" >&2
perf record -F "$freq" "${cg_args[@]}" -o "$base.perf.data" "${target[@]}" -- "${what[@]}" 2> "$base.perf-record.log"
rc=$?
trap - INT
if [ ! -s "$base.perf.data" ]; then
  sed 's/^/  perf: /' "$base.perf-record.log" >&2
  if grep -qiE "permission|paranoid|not permitted" "$base.perf-record.log"; then
    die "perf may not record here: run as root, or lower kernel.perf_event_paranoid (see above)"
  fi
  die "perf record failed (status $rc)"
fi
[ $interrupted = 1 ] && echo "$me: interrupted: converting what was recorded" >&2
rm -f "$base.perf-record.log"

svg_args=()
[ $icicle = 1 ] && svg_args+=(--inverted)
[ $chart = 1 ] && svg_args+=(--flamechart)
set -o pipefail
perf script -i "$base.perf.data" 2>/dev/null | gzip -c > "$base.perf-script.txt.gz" ||
  die "perf script failed on $base.perf.data"
"$bin/flamefold" "$base.perf-script.txt.gz" > "$base.folded" || die "flamefold failed"
"$bin/flamesvg" "${svg_args[@]}" --title "$(basename "$base")" "$base.folded" > "$base.svg" ||
  die "flamesvg failed"
"$bin/flamereport" "$base.folded" > "$base.report.txt" || die "flamereport failed"
for ext in perf.data perf-script.txt.gz folded svg report.txt; do
  echo "$base.$ext"
done
