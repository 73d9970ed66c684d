#!/bin/bash
# Records programs that nobody here wrote, on the machine the test runs on,
# and folds each recording both ways: `flamefold FILE.data` (the replay and
# DWARF unwinder) against `perf script -i FILE.data | flamefold` (the text
# path, which prints what stackcollapse-perf.pl prints: see the golden
# suites) and, when $FLAMEGRAPH_DIR (default /tmp/FlameGraph) holds
# stackcollapse-perf.pl, against the Perl script itself. Each must give the
# same stacks for the whole sample weight.
#
# Programs: Debian's sort, gzip and python3 (dynamically linked, stripped;
# libc with its separate debug file where libc6-dbg is installed), each with
# frame pointers (-g) and with --call-graph dwarf. Each is folded twice:
# with the system as it is (perf record's build-id cache, /usr/lib/debug),
# and as on a host without debug files: an empty build-id cache and a
# --symfs root that links /usr/bin and /usr/lib but not /usr/lib/debug.
#
# Then python3 in a loop of time.time() (its time in the vDSO), recorded
# without a build-id table (-z, -B, --buildid-mmap, or to a pipe), whose
# [vdso] frames perf script names from its own vDSO.
#
# Then a system-wide recording, its kernel frames named from the build-id
# cache's copy of kallsyms and, with that copy made stale, from
# /proc/kallsyms.
#
# Skipped (exit 77, with the reason) only where perf may not record.
set -u
: "${BUILD_DIR:?}"
ff=$BUILD_DIR/src/tools/flamefold
collapse=${FLAMEGRAPH_DIR:-/tmp/FlameGraph}/stackcollapse-perf.pl
work=$(mktemp -d)
# A failed run keeps its recordings to look into: a failure that comes once in
# many runs cannot be looked into once its recording is gone.
trap 'if [ "${fail:-0}" -eq 0 ]; then rm -rf "$work"; else echo "perf-live: recordings kept in $work"; fi' EXIT
cd "$work" || exit 1
if ! command -v perf >/dev/null ||
    ! perf record -q -o probe.data -- true >/dev/null 2>&1; then
  echo "SKIP: perf cannot record here (not installed, or not permitted:" \
    "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
  exit 77
fi
for p in sort gzip python3; do
  [ -x /usr/bin/$p ] || { echo "FAIL: /usr/bin/$p is not installed"; exit 1; }
done
export HOME=$work/home  # perf record's build-id cache, ours alone
mkdir -p "$HOME" nodebug/usr empty-cache
ln -s /usr/bin nodebug/usr/bin
mkdir -p nodebug/usr/lib
for d in /usr/lib/*; do
  [ "$d" = /usr/lib/debug ] || ln -s "$d" "nodebug$d"
done
ln -s usr/bin nodebug/bin
ln -s usr/lib nodebug/lib
ln -s usr/lib64 nodebug/lib64 2>/dev/null
[ -e /usr/lib64 ] && ln -s /usr/lib64 nodebug/usr/lib64

# A few MB of text: sort and gzip spend their time in their own code and
# libc's (read, memcpy, strcoll).
python3 -c '
import random
r = random.Random(7)
words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
with open("text", "w") as f:
    for i in range(150000):
        f.write(" ".join(r.choice(words) + str(r.randrange(10**6)) for _ in range(6)) + "\n")
'
py='import json; d=[{"k": i, "v": str(i) * 3} for i in range(60000)]; [json.loads(json.dumps(d)) for _ in range(3)]'

fail=0 pass=0
weight() {  # weight EXPECTED ACTUAL: % of EXPECTED's weight in identical stacks
  awk 'FNR == NR { n = $NF; sub(/ [0-9]+$/, ""); want[$0] += n; total += n; next }
       { n = $NF; sub(/ [0-9]+$/, ""); got[$0] += n }
       END { for (k in want) same += (got[k] < want[k] ? got[k] : want[k])
             printf "%.2f", total ? 100 * same / total : 100 }' "$1" "$2"
}
compare() {  # compare WHAT EXPECTED ACTUAL
  local w
  w=$(weight "$2" "$3")
  if [ -s "$2" ] && sort "$2" | cmp -s - <(sort "$3"); then
    pass=$((pass + 1)); echo "ok   $1: $w% of the weight identical"
  else
    fail=$((fail + 1)); echo "FAIL $1: $w% of the weight identical"
    diff <(sort "$2") <(sort "$3") | head -6 | cut -c1-300
  fi
}
for prog in sort gzip python3; do
  for mode in fp dwarf; do
    name=$prog-$mode
    cg=(-g); [ $mode = dwarf ] && cg=(--call-graph dwarf)
    case $prog in
      sort) cmd=(sort -S 16M text -o /dev/null) ;;
      gzip) cmd=(gzip -6 -c text) ;;
      python3) cmd=(/usr/bin/python3 -c "$py") ;;
    esac
    perf record -q -F 499 "${cg[@]}" -o $name.data -- "${cmd[@]}" \
      > /dev/null 2> $name.record-err || { echo "FAIL $name: perf record:";
      cat $name.record-err; fail=$((fail + 1)); continue; }
    for host in here nodebug; do
      popts=() fopts=()
      if [ $host = nodebug ]; then
        # (perf reads no kernel symbols under --symfs unless told where)
        popts=(--buildid-dir "$work/empty-cache")
        fopts=(--buildid-dir "$work/empty-cache" --symfs "$work/nodebug"
               --kallsyms /proc/kallsyms)
        sopts=(--symfs "$work/nodebug" --kallsyms /proc/kallsyms)
      else
        sopts=()
      fi
      perf "${popts[@]}" script -i $name.data "${sopts[@]}" 2>/dev/null > $name.txt
      "$ff" -q --jobs 1 $name.txt > $name.text.folded
      "$ff" -q "${fopts[@]}" $name.data > $name.data.folded 2> $name.err ||
        { echo "FAIL $name ($host): flamefold exit $?"; cat $name.err; fail=$((fail + 1)); }
      compare "$name ($host): perf.data vs perf script | flamefold" \
        $name.text.folded $name.data.folded
      if [ -f "$collapse" ]; then
        perl "$collapse" $name.txt > $name.perl.folded 2>/dev/null
        compare "$name ($host): perf.data vs perf script | stackcollapse-perf.pl" \
          $name.perl.folded $name.data.folded
      fi
    done
  done
done

# Recordings without a build-id table: perf record -z (compressed), -B, --buildid-mmap and -o - (a
# pipe) write none, and perf script then names [vdso] frames from its own vDSO (the same image on
# the host that recorded), so the fold must too, not leave them [[vdso]] (no symbols).
vpy='import time
t = 0
for _ in range(2000000): t += time.time()'
for variant in z B buildid-mmap z-dwarf pipe; do
  case $variant in
    z) ropts=(-z -g) ;;
    B) ropts=(-B -g) ;;
    buildid-mmap) ropts=(--buildid-mmap -g) ;;
    z-dwarf) ropts=(-z --call-graph dwarf) ;;
    pipe) ropts=(-g) ;;  # perf record -o - | flamefold: no table in a pipe
  esac
  name=vdso-$variant
  if [ $variant = pipe ]; then
    perf record -q -F 999 "${ropts[@]}" -o - -- /usr/bin/python3 -c "$vpy" \
      > $name.data 2> $name.record-err
  else
    perf record -q -F 999 "${ropts[@]}" -o $name.data -- /usr/bin/python3 -c "$vpy" \
      > /dev/null 2> $name.record-err
  fi || { echo "FAIL $name: perf record:"; cat $name.record-err;
          fail=$((fail + 1)); continue; }
  perf script -i $name.data 2>/dev/null > $name.txt
  "$ff" -q --jobs 1 $name.txt > $name.text.folded
  "$ff" -q < $name.data > $name.data.folded 2> $name.err ||
    { echo "FAIL $name: flamefold exit $?"; cat $name.err; fail=$((fail + 1)); }
  # The comparison means something only if perf named a vDSO frame.
  if ! grep -oE '(^|;)[^;]*vdso[^;]*' $name.text.folded | grep -qv '\[\[vdso\]\]'; then
    fail=$((fail + 1)); echo "FAIL $name: perf script named no vDSO frame"
    continue
  fi
  compare "$name: perf.data vs perf script | flamefold" $name.text.folded $name.data.folded
  if [ -f "$collapse" ]; then
    perl "$collapse" $name.txt > $name.perl.folded 2>/dev/null
    compare "$name: perf.data vs perf script | stackcollapse-perf.pl" \
      $name.perl.folded $name.data.folded
  fi
done
# A system-wide recording, whose kernel frames flamefold names from the
# copy of kallsyms that perf record left in the build-id cache (checked
# current against /proc/kallsyms and /proc/modules), and again with that
# copy made stale (a module that is not loaded; another load address):
# /proc/kallsyms is read instead. All must give perf script's stacks.
name=system-wide
if perf record -q -a -g -F 499 -o $name.data -- sort -S 16M text -o /dev/null \
    > /dev/null 2> $name.record-err; then
  copy=$(ls -d "$HOME"/.debug/\[kernel.kallsyms\]/*/kallsyms 2>/dev/null | head -1)
  perf script -i $name.data 2>/dev/null > $name.txt
  "$ff" -q --jobs 1 $name.txt > $name.text.folded
  if ! grep -q . $name.text.folded; then
    fail=$((fail + 1)); echo "FAIL $name: perf script gave no stacks"
  elif [ -z "$copy" ]; then  # perf's configuration may keep no cache
    echo "note: perf record left no kallsyms copy in $HOME/.debug"
    "$ff" -q $name.data > $name.data.folded 2> $name.err ||
      { echo "FAIL $name: flamefold exit $?"; cat $name.err; fail=$((fail + 1)); }
    compare "$name: perf.data vs perf script | flamefold" \
      $name.text.folded $name.data.folded
  else
    for stale in none module address; do
      cp "$copy" "$work/kallsyms.orig"
      # Each stale copy would name the frames otherwise if it were read:
      # past its first page every name is changed (module), or every
      # address moved (address: as after a reboot with another KASLR base).
      case $stale in
        module) awk 'NR > 400 { $3 = "stale_" $3 } { print }' OFS=' ' \
                  "$work/kallsyms.orig" > "$copy"
                printf 'ffffffffc0000000 t fake_fn\t[flamefold_fake]\n' >> "$copy" ;;
        address) sed -i 's/^ffffffff8/ffffffff9/' "$copy" ;;
      esac
      "$ff" -q $name.data > $name.$stale.folded 2> $name.err ||
        { echo "FAIL $name: flamefold exit $?"; cat $name.err; fail=$((fail + 1)); }
      cp "$work/kallsyms.orig" "$copy"
      compare "$name (kallsyms copy: stale $stale): perf.data vs perf script | flamefold" \
        $name.text.folded $name.$stale.folded
    done
  fi
else
  echo "note: perf cannot record system-wide here; $name skipped"
  cat $name.record-err
fi
[ -f "$collapse" ] || echo "note: no $collapse here; compared with the text path only"
echo "perf-live: $pass passed, $fail failed"
[ $fail -eq 0 ]
