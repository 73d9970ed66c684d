#!/bin/bash
# Re-creates the perf.data golden cases (run as root, perf 6.x, x86-64):
#   testdata/perf-data/record.sh [fp|dwarf|dwarf-lld|clang|dframe|rust|dyn|weight|offcpu|archive]
#   (default: all)
# "fp" are the frame-pointer cases, "dwarf" the --call-graph dwarf ones,
# "dyn" dynamically linked programs recorded both ways, "archive" those
# folded with the `perf archive` of their recording (last sections).
# The programs are built static and kept under root/ at the path they ran
# from (/tmp/ffrec), so that `--symfs root` finds them on any host. Kernel
# cases keep the kallsyms lines their samples need (the symbols hit, the one
# after each, _text/_etext and the modules hit): perf and flamefold read the
# same trimmed file, so the symbol ends do not change.
# Expected outputs are perf script's, with the same symbol sources, piped
# through /tmp/FlameGraph/stackcollapse-perf.pl; each is named after the
# options given to both ("all+tid.folded": --all --tid).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
only=${1:-}
run=/tmp/ffrec
root=$here/root
collapse=${COLLAPSE:-/tmp/FlameGraph/stackcollapse-perf.pl}
echo -1 > /proc/sys/kernel/perf_event_paranoid
rec() {  # rec CASE perf-record-args...
  shift
  perf record -q "$@" 2>/dev/null
}
script() {  # script CASE [perf script args]: perf script with our sources
  local c=$1; shift
  local k=() r=$root
  [ -f "$here/$c/kallsyms" ] && k=(--kallsyms "$here/$c/kallsyms")
  [ -d "$here/$c/root" ] && r=$here/$c/root
  perf --buildid-dir /nonexistent script -i "$here/$c/perf.data" \
    --symfs "$r" "${k[@]}" "$@" 2>/dev/null
}
expect() {  # expect CASE NAME [stackcollapse options]
  local c=$1 name=$2; shift 2
  [ -f "$here/$c/kallsyms" ] || trim_kallsyms "$c"
  script "$c" | "$collapse" "$@" > "$here/$c/$name.folded"
}
expect_srcline() {  # expect_srcline CASE NAME [options]: perf script -F+srcline
  # (perf dies of SIGPIPE when an addr2line process exits early; ignored)
  local c=$1 name=$2; shift 2
  (trap '' PIPE; script "$c" -F+srcline) | "$collapse" "$@" \
    > "$here/$c/$name.folded"
}
trim_kallsyms() {  # the lines of /proc/kallsyms that CASE's samples need
  local c=$1
  perf script -i "$here/$c/perf.data" -F ip,dso 2>/dev/null |
    awk '/\(\[kernel\.kallsyms\]\)/ { print $1 }' | sort -u > "$run/kaddrs"
  python3 - "$run/kaddrs" > "$here/$c/kallsyms" <<'PY'
import sys
addrs = sorted(int(a, 16) for a in open(sys.argv[1]) if a.strip())
lines = open('/proc/kallsyms').read().splitlines()
text = [(int(l.split()[0], 16), i) for i, l in enumerate(lines)
        if l.split()[1] in 'tTwW' and '[' not in l]
text.sort()
keep = set(i for i, l in enumerate(lines)
           if l.split()[2] in ('_text', '_stext', '_etext'))
import bisect
starts = [s for s, _ in text]
for a in addrs:
    k = bisect.bisect_right(starts, a) - 1
    if k >= 0:
        keep.add(text[k][1])
        if k + 1 < len(text):
            keep.add(text[k + 1][1])
for i in sorted(keep, key=lambda i: int(lines[i].split()[0], 16)):
    print(lines[i])
PY
}

if [ "$only" = "" ] || [ "$only" = fp ]; then
rm -rf "$run" && mkdir -p "$run"
cp "$here/work.c" "$here/jit.c" "$run/"
cd "$run"
gcc -O2 -fno-omit-frame-pointer -static -o work work.c
gcc -O2 -fno-omit-frame-pointer -static -o jit jit.c
# A stripped PIE whose symbols are in a separate debug file.
gcc -O2 -fno-omit-frame-pointer -o work-stripped work.c
objcopy --only-keep-debug work-stripped work-stripped.debug
strip --strip-all work-stripped
objcopy --add-gnu-debuglink=work-stripped.debug work-stripped

root=$here/root
rm -rf "$root" && mkdir -p "$root$run" "$root/tmp"
cp work jit work-stripped work-stripped.debug "$root$run/"

cases="fp-user stripped-debuglink system-wide two-events group-read sample-read pipe zstd jit"
for c in $cases; do rm -rf "${here:?}/$c" && mkdir -p "$here/$c"; done

# 1. user-only frame-pointer call graph
rec fp-user -F 199 -g -e cpu-clock:u -o "$here/fp-user/perf.data" ./work 1500
expect fp-user default
expect fp-user pid --pid
expect_srcline fp-user srcline --srcline

# 2. stripped binary, symbols from its .gnu_debuglink file
rec stripped-debuglink -F 199 -g -o "$here/stripped-debuglink/perf.data" \
  ./work-stripped 1500
expect stripped-debuglink default

# 3. system-wide with kernel stacks
rec system-wide -a -F 199 -g -o "$here/system-wide/perf.data" ./work 120 1
expect system-wide default
expect system-wide kernel --kernel
expect system-wide all+tid --all --tid

# 4. two events
rec two-events -F 199 -g -e cpu-clock -e page-faults \
  -o "$here/two-events/perf.data" ./work 1500
expect two-events default
expect two-events event-filter=page-faults --event-filter=page-faults
expect two-events event-filter=cpu-clock --event-filter=cpu-clock
expect_srcline two-events srcline --srcline

# 4b. leader sampling: the group's counters read at each cpu-clock sample,
# one sample per member whose count changed, periods from the counts
rec group-read -F 199 -g -e '{cpu-clock,page-faults}:S' \
  -o "$here/group-read/perf.data" ./work 1500
expect group-read default
expect group-read event-filter=page-faults --event-filter=page-faults
expect group-read event-filter=cpu-clock --event-filter=cpu-clock
# ... and one event reading its own counter (value, then id and lost)
rec sample-read -F 199 -g -e 'cpu-clock:S' -o "$here/sample-read/perf.data" \
  ./work 1500
expect sample-read default

# 5. pipe mode
rec pipe -F 199 -g -o - ./work 1500 > "$here/pipe/perf.data"
expect pipe default

# 6. perf record -z (zstd-compressed records)
rec zstd -z -F 199 -g -o "$here/zstd/perf.data" ./work 1500
expect zstd default

# 7. JIT code described by /tmp/perf-PID.map
# perf reads the map from /tmp whatever --symfs says; flamefold looks under
# --symfs, so the copy in root/tmp is what the test uses.
rm -f /tmp/perf-*.map
rec jit -F 199 -g -o "$here/jit/perf.data" ./jit 60
cp /tmp/perf-*.map "$root/tmp/"
expect jit default
expect jit jit --jit
expect_srcline jit srcline --srcline
rm -f /tmp/perf-*.map
fi

# --- DWARF call graphs (--call-graph dwarf) ------------------------------
# Programs built -O2 -g without frame pointers, so that only DWARF
# unwinding finds the callers, and kept in CASE/root at the path they ran
# from (/tmp/ffdw): dwarf.cc static-pie (C++ templates, lambdas through
# std::function, inlined calls; "threads" on three threads), shlib.c and
# libtiny.c (no libc: a call through a shared library and back). Each case
# also has expectations with --inline and --context (the Perl script runs
# addr2line on the binaries at /tmp/ffdw), and dwarf-cxx keeps its perf
# script text (script.txt.gz) to check the same on text input.
if [ "$only" = "" ] || [ "$only" = dwarf ]; then
dw=/tmp/ffdw
mkdir -p "$run"  # trim_kallsyms's scratch
rm -rf "$dw" && mkdir -p "$dw"
cp "$here/dwarf.cc" "$here/shlib.c" "$here/libtiny.c" "$dw/"
cd "$dw"
g++ -O2 -g -fomit-frame-pointer -fno-exceptions -static-pie \
  -ffunction-sections -Wl,--gc-sections -o dwarf dwarf.cc
gcc -O2 -g -fomit-frame-pointer -fPIC -shared -nostdlib -o libtiny.so \
  libtiny.c
gcc -O2 -g -fomit-frame-pointer -fno-stack-protector -nostdlib -o shlib \
  shlib.c -L"$dw" -ltiny -Wl,-rpath,"$dw"
dcases="dwarf-cxx dwarf-threads dwarf-shlib"
for c in $dcases; do rm -rf "${here:?}/$c" && mkdir -p "$here/$c"; done
mkdir -p "$here/dwarf-cxx/root$dw" "$here/dwarf-shlib/root$dw"
cp dwarf "$here/dwarf-cxx/root$dw/"
ln -s ../dwarf-cxx/root "$here/dwarf-threads/root"
cp shlib libtiny.so "$here/dwarf-shlib/root$dw/"
drec() {  # drec CASE command...: 299 Hz, 4 KB of stack, zstd records
  local c=$1; shift
  perf record -q -z -F 299 --call-graph dwarf,4096 \
    -o "$here/$c/perf.data" "$@" > /dev/null 2>&1
}
drec dwarf-cxx ./dwarf cxx 600
drec dwarf-threads ./dwarf threads 250
drec dwarf-shlib ./shlib 12000
for c in $dcases; do
  expect "$c" default
  expect "$c" inline --inline
  expect "$c" inline+context --inline --context
  expect_srcline "$c" srcline --srcline
done
expect_srcline dwarf-cxx inline+srcline --inline --srcline
script dwarf-cxx | gzip -9n > "$here/dwarf-cxx/script.txt.gz"
fi

# dwarf_variant CASE CXX [FLAGS...]: dwarf.cc built as /tmp/ffdw/CASE by
# `CXX -O2 -g -fomit-frame-pointer -fno-exceptions -static-pie FLAGS` and
# recorded from there as dwarf-cxx is, with the expectations default,
# inline, inline+context and srcline.
dwarf_variant() {
  local c=$1 cxx=$2 dw=/tmp/ffdw
  shift 2
  mkdir -p "$run" "$dw"
  cp "$here/dwarf.cc" "$dw/"
  (cd "$dw" && "$cxx" -O2 -g -fomit-frame-pointer -fno-exceptions \
    -static-pie "$@" -o "$c" dwarf.cc) || exit 1
  rm -rf "${here:?}/$c" && mkdir -p "$here/$c/root$dw"
  cp "$dw/$c" "$here/$c/root$dw/"
  (cd "$dw" && perf record -q -z -F 299 --call-graph dwarf,4096 \
    -o "$here/$c/perf.data" "./$c" cxx 600 > /dev/null 2>&1)
  expect "$c" default
  expect "$c" inline --inline
  expect "$c" inline+context --inline --context
  expect_srcline "$c" srcline --srcline
}

# --- DWARF, a program linked by lld (record.sh dwarf-lld) -------------------
# dwarf.cc again, linked by lld, which lays .text out at an address 0x1000
# past its file offset (as rustc's default linker does): perf asks addr2line
# for the inlined frames at the address in the file moved by that much
# (its dso->text_offset), so the "(inlined)" frames name the right code.
if [ "$only" = "" ] || [ "$only" = dwarf ] || [ "$only" = dwarf-lld ]; then
  dwarf_variant dwarf-lld g++ -fuse-ld=lld
fi

# --- clang's DWARF 5 (record.sh clang) ----------------------------------------
# dwarf.cc built by clang++ 14 (DWARF 5; the ranges of inlined functions
# given as DW_FORM_rnglistx indexes, which binutils 2.40's addr2line does
# not read: it never names those inlined functions).
if [ "$only" = "" ] || [ "$only" = clang ]; then
  dwarf_variant dwarf-clang clang++
fi

# --- CFI in .debug_frame alone (record.sh dframe) -----------------------------
# dframe.c (_start, run) with unwind tables and dframe-nocfi.c (mid, leaf)
# without: their CFI is in .debug_frame only, which perf 6.1 as Debian
# builds it never reads (Go programs are so made). No libc, a static-pie.
if [ "$only" = "" ] || [ "$only" = dframe ]; then
df=/tmp/ffdfr
mkdir -p "$run"
rm -rf "$df" && mkdir -p "$df"
cp "$here/dframe.c" "$here/dframe-nocfi.c" "$df/"
cd "$df"
gcc -O2 -g -fomit-frame-pointer -fno-asynchronous-unwind-tables \
  -fno-unwind-tables -c dframe-nocfi.c
gcc -O2 -g -fomit-frame-pointer -fno-stack-protector -c dframe.c
gcc -nostdlib -static-pie -o dframe dframe.o dframe-nocfi.o
rm -rf "${here:?}/dwarf-debug-frame"
mkdir -p "$here/dwarf-debug-frame/root$df"
cp dframe "$here/dwarf-debug-frame/root$df/"
perf record -q -z -F 299 --call-graph dwarf,2048 \
  -o "$here/dwarf-debug-frame/perf.data" ./dframe > /dev/null 2>&1
expect dwarf-debug-frame default
fi

# --- Rust (record.sh rust) ----------------------------------------------------
# tiny.rs, no std and no libc (a 14 KB static-pie, every frame in it), built
# by rustc with v0 names and linked by its lld (.text a page past its
# offset), recorded with frame pointers
# and with --call-graph dwarf from /tmp/ffrs: v0 names with fn and dyn
# types, rustc's rows of line 0 ("tiny.rs:?" for addr2line), and --inline's
# fall-back to nm where addr2line knows nothing of the address (the Perl
# script reads perf script's file offsets as addresses).
if [ "$only" = "" ] || [ "$only" = rust ]; then
rs=/tmp/ffrs
mkdir -p "$run"
rm -rf "$rs" && mkdir -p "$rs"
cp "$here/tiny.rs" "$rs/"
cd "$rs"
RUSTC_BOOTSTRAP=1 rustc --edition 2021 -O -g -C panic=abort \
  -C force-frame-pointers=yes -C symbol-mangling-version=v0 \
  -C link-arg=-nostartfiles -C link-arg=-nostdlib -C link-arg=-static-pie \
  -o tiny-rust tiny.rs
rm -rf "${here:?}/rust-fp" "${here:?}/rust-dwarf"
mkdir -p "$here/rust-fp/root$rs" "$here/rust-dwarf"
cp tiny-rust "$here/rust-fp/root$rs/"
ln -s ../rust-fp/root "$here/rust-dwarf/root"
perf record -q -F 299 -g -o "$here/rust-fp/perf.data" ./tiny-rust \
  > /dev/null 2>&1
perf record -q -z -F 99 --call-graph dwarf,2048 \
  -o "$here/rust-dwarf/perf.data" ./tiny-rust > /dev/null 2>&1
for c in rust-fp rust-dwarf; do
  expect "$c" default
  expect "$c" inline --inline
  expect "$c" inline+context --inline --context
  expect_srcline "$c" srcline --srcline
done
fi

if [ "$only" = "" ] || [ "$only" = dwarf ]; then
dw=/tmp/ffdw
cd "$dw"
# A small uncompressed pipe-mode recording (1 KB of stack a sample), the
# seed of the hostile DWARF inputs of testdata/bad/make.py.
perf record -q -F 99 --call-graph dwarf,1024 -o - ./shlib 600 2>/dev/null \
  > "$here/dwarf-shlib/small-pipe.data"
fi

# --- Dynamically linked programs, as users record them ---------------------
# dyn.c (libc: qsort calling back, string functions, write) and dyn.cc
# (libstdc++: std::map<std::string> and std::sort on three threads), each
# recorded with frame pointers (-g) and with --call-graph dwarf (perf's
# default 8 KB of stack). The shared objects the samples touch are kept in
# dyn-root/ at their paths, their code and data zeroed by zero-code.py (what
# perf and flamefold read of them, headers, symbols and CFI, is intact; 1.7 MB
# packed instead of 3.6 MB); dyn-root-dbg/ is the same (symbolic links) plus
# libc's separate debug file from libc6-dbg at its build-id path, stripped
# of its DWARF sections (symbols kept: perf takes libc's symbols from it, and
# unwinding must not take its empty .eh_frame). Each CASE folds with the
# debug file visible (root -> ../dyn-root-dbg); CASE-nodebug is the same
# recording without it (root -> ../dyn-root).
if [ "$only" = "" ] || [ "$only" = dyn ]; then
dy=/tmp/ffdyn
mkdir -p "$run"
rm -rf "$dy" && mkdir -p "$dy"
cp "$here/dyn.c" "$here/dyn.cc" "$dy/"
cd "$dy"
gcc -O2 -g -fno-omit-frame-pointer -o dyn-fp dyn.c
gcc -O2 -g -fomit-frame-pointer -o dyn-dwarf dyn.c
# The C++ program without debug information, as Debian ships programs
# (their debug files are in -dbgsym packages that users rarely install).
g++ -O2 -fno-omit-frame-pointer -pthread -o dyncxx-fp dyn.cc
g++ -O2 -fomit-frame-pointer -pthread -o dyncxx-dwarf dyn.cc
lib=/usr/lib/x86_64-linux-gnu
libc_dbg=$(readlink -f "/usr/lib/debug/.build-id/$(readelf -n $lib/libc.so.6 |
  awk '/Build ID/ { print substr($3, 1, 2) "/" substr($3, 3) }').debug")
r=$here/dyn-root rd=$here/dyn-root-dbg
rm -rf "$r" "$rd" && mkdir -p "$r$dy" "$r$lib" "$rd$dy" "$rd$lib"
cp dyn-fp dyn-dwarf dyncxx-fp dyncxx-dwarf "$r$dy/"
for f in libc.so.6 ld-linux-x86-64.so.2 libstdc++.so.6.0.30 libm.so.6 \
    libgcc_s.so.1; do
  cp "$lib/$f" "$r$lib/"
  python3 "$here/zero-code.py" "$r$lib/$f"  # symbols and CFI kept
  ln -s "../../../../dyn-root$lib/$f" "$rd$lib/$f"
done
for f in dyn-fp dyn-dwarf dyncxx-fp dyncxx-dwarf; do
  ln -s "../../../dyn-root$dy/$f" "$rd$dy/$f"
done
dbg=${libc_dbg#/usr/lib/debug/}
mkdir -p "$(dirname "$rd/usr/lib/debug/$dbg")"
strip --strip-debug -o "$rd/usr/lib/debug/$dbg" "$libc_dbg"
dycases="dyn-c-fp dyn-c-dwarf dyn-cxx-fp dyn-cxx-dwarf"
for c in $dycases; do
  rm -rf "${here:?}/$c" "${here:?}/$c-nodebug"
  mkdir -p "$here/$c" "$here/$c-nodebug"
done
perf record -q -F 499 -g -o "$here/dyn-c-fp/perf.data" ./dyn-fp 300 \
  > /dev/null 2>&1
perf record -q -z -F 499 --call-graph dwarf \
  -o "$here/dyn-c-dwarf/perf.data" ./dyn-dwarf 300 > /dev/null 2>&1
perf record -q -F 499 -g -o "$here/dyn-cxx-fp/perf.data" ./dyncxx-fp 60000 \
  > /dev/null 2>&1
perf record -q -z -F 499 --call-graph dwarf \
  -o "$here/dyn-cxx-dwarf/perf.data" ./dyncxx-dwarf 60000 > /dev/null 2>&1
for c in $dycases; do
  ln -s ../dyn-root-dbg "$here/$c/root"
  ln -s ../dyn-root "$here/$c-nodebug/root"
  ln -s "../$c/perf.data" "$here/$c-nodebug/perf.data"
  expect "$c" default
  expect "$c" pid --pid
  ln -s "../$c/kallsyms" "$here/$c-nodebug/kallsyms"
  expect "$c-nodebug" default
done
# --modern --pid/--tid on perf.data take the PID and TID each sample holds:
# what the Perl script prints for perf script -F +pid.
for o in pid tid; do
  script dyn-c-fp -F +pid | "$collapse" "--$o" > "$here/dyn-c-fp/modern+$o.folded"
done
fi

# --- Tracepoint fields, --weight (record.sh weight) ---------------------------
# alloc.c built dynamically with frame pointers at /tmp/ffwt; each case
# keeps it in weight-kmalloc/root/tmp/ffwt, with links to dyn-root's libc
# and ld.so (weight-malloc/root is a link to it). "weight-kmalloc": the
# kernel's allocations of `./alloc kernel 10` (pipes, a /proc read), with
# -e kmem:kmalloc -e sched:sched_process_exec (a tracepoint without
# bytes_alloc, whose filename is a __data_loc string); "weight-malloc": a
# uprobe on libc's malloc with its size (bytes=%di:u64) over `./alloc
# malloc 20`. weight=FIELD.folded: perf script's text with each sample's
# FIELD in place of its period (weight.py) through stackcollapse-perf.pl.
# Each case keeps its perf script text (script.txt.gz).
if [ "$only" = "" ] || [ "$only" = weight ]; then
wt=/tmp/ffwt
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$run"
rm -rf "$wt" && mkdir -p "$wt"
cp "$here/alloc.c" "$wt/"
cd "$wt"
gcc -O1 -fno-omit-frame-pointer -o alloc alloc.c
for c in weight-kmalloc weight-malloc; do
  rm -rf "${here:?}/$c" && mkdir -p "$here/$c"
done
r=$here/weight-kmalloc/root
mkdir -p "$r$wt" "$r$lib"
cp alloc "$r$wt/"
for f in libc.so.6 ld-linux-x86-64.so.2; do
  ln -s "../../../../../dyn-root$lib/$f" "$r$lib/$f"
done
ln -s ../weight-kmalloc/root "$here/weight-malloc/root"
perf record -q -e kmem:kmalloc -e sched:sched_process_exec -g \
  -o "$here/weight-kmalloc/perf.data" ./alloc kernel 10 2>/dev/null
perf probe -q -x $lib/libc.so.6 'malloc bytes=%di:u64'
trap 'perf probe -q -d probe_libc:malloc' EXIT  # never left behind
perf record -q -e probe_libc:malloc -g -o "$here/weight-malloc/perf.data" \
  ./alloc malloc 20 2>/dev/null
perf probe -q -d probe_libc:malloc
trap - EXIT
for c in weight-kmalloc:bytes_alloc weight-malloc:bytes; do
  field=${c#*:} c=${c%%:*}
  expect "$c" default
  script "$c" | python3 "$here/weight.py" "$field" | "$collapse" \
    > "$here/$c/weight=$field.folded"
  script "$c" | gzip -9n > "$here/$c/script.txt.gz"
done
fi

# --- Off-CPU time (record.sh offcpu) ------------------------------------------
# offcpu.c built as a static-pie with frame pointers at /tmp/ffoff (with
# DWARF, perf 6.1 unwinds no further than the first frame of a static
# non-PIE program), kept in offcpu-fp/root/tmp/ffoff (the other cases' root
# is a link to it), and recorded four ways: "offcpu-fp" -e sched:sched_switch --switch-events -g,
# "offcpu-dwarf" the same with --call-graph dwarf, "offcpu-system-wide" -a
# -e sched:sched_switch -g (with every other task of the machine), and
# "offcpu-onoff" -e cpu-clock -e sched:sched_switch --switch-events -g (the
# CPU samples beside the switches, for --on-off).
# default.folded counts the sched_switch samples as any samples are counted.
# CASE/off-cpu/ holds script.txt.gz, the perf script text that
# test/golden/offcpu_reference.py reads (its fields and side-band records
# are named there), and program.txt, the times the program measured of its
# own blocking calls. CASE/off-cpu*.folded are the reference's outputs on
# that text, which `flamefold --off-cpu` is to print on perf.data and on
# the text, NAME spelling flamefold's options as the other expectations do
# ("off-cpu+off-cpu-state=S": --off-cpu --off-cpu-state=S);
# test/golden/perf-data.sh checks flamefold against them and
# test/golden/offcpu-reference.sh the reference. offcpu-onoff keeps only
# off-cpu+on-off.folded, from a text that also holds the samples' periods
# (the cpu-clock ns that --on-off counts) and no cpu field (the cpu-clock
# samples of a per-thread recording have none: perf script refuses to
# print it).
if [ "$only" = "" ] || [ "$only" = offcpu ]; then
oc=/tmp/ffoff
reference=$here/../../test/golden/offcpu_reference.py
mkdir -p "$run"
rm -rf "$oc" && mkdir -p "$oc"
cp "$here/offcpu.c" "$oc/"
cd "$oc"
gcc -O2 -fno-omit-frame-pointer -static-pie -pthread -o offcpu offcpu.c
ocases="offcpu-fp offcpu-dwarf offcpu-system-wide"
for c in $ocases offcpu-onoff; do
  rm -rf "${here:?}/$c" && mkdir -p "$here/$c/off-cpu"
done
mkdir -p "$here/offcpu-fp/root$oc"
cp offcpu "$here/offcpu-fp/root$oc/"
ln -s ../offcpu-fp/root "$here/offcpu-dwarf/root"
ln -s ../offcpu-fp/root "$here/offcpu-system-wide/root"
ln -s ../offcpu-fp/root "$here/offcpu-onoff/root"
orec() {  # orec CASE perf-record-args...: the program's times in program.txt
  local c=$1; shift
  perf record -q "$@" -o "$here/$c/perf.data" ./offcpu \
    > "$here/$c/off-cpu/program.txt" 2>/dev/null
}
orec offcpu-fp -e sched:sched_switch --switch-events -g
orec offcpu-dwarf -e sched:sched_switch --switch-events --call-graph dwarf
orec offcpu-system-wide -a -e sched:sched_switch -g
orec offcpu-onoff -e cpu-clock -e sched:sched_switch --switch-events -g
# expect_offcpu CASE NAME [reference options]
expect_offcpu() {
  local c=$1 name=$2; shift 2
  python3 "$reference" "$here/$c/off-cpu/script.txt.gz" \
    --collapse "$collapse" "$@" > "$here/$c/$name.folded"
}
for c in $ocases; do
  expect "$c" default
  script "$c" --ns -F comm,pid,tid,cpu,time,event,trace,ip,sym,dso \
    --show-switch-events --show-task-events | gzip -9n \
    > "$here/$c/off-cpu/script.txt.gz"
  expect_offcpu "$c" off-cpu
  expect_offcpu "$c" off-cpu+tid -- --tid
  expect_offcpu "$c" off-cpu+off-cpu-unit=ns --unit ns
  expect_offcpu "$c" off-cpu+off-cpu-state=S --state S
  expect_offcpu "$c" off-cpu+off-cpu-min-us=1000 --min-us 1000
done
# --time-range: the waits that began from 50 to 200 ms after the first
# sample (absolute times: a relative range's "+" is NAME's separator).
offcpu_range() {  # offcpu_range CASE: START,END of that slice
  gzip -dc "$here/$1/off-cpu/script.txt.gz" | grep -oE ' [0-9]+\.[0-9]{9}: ' |
    awk '$1 + 0 > 0 { t = $1 + 0; if (!first || t < first) first = t }
         END { printf "%.2f,%.2f", first + 0.05, first + 0.2 }'
}
for c in offcpu-fp offcpu-system-wide; do
  r=$(offcpu_range "$c")
  expect_offcpu "$c" "off-cpu+time-range=$r" --time-range "$r"
done
expect_offcpu offcpu-system-wide off-cpu+off-cpu-state=R --state R
expect_offcpu offcpu-system-wide off-cpu+kernel -- --kernel
expect_offcpu offcpu-system-wide off-cpu+pid -- --pid
expect offcpu-onoff default
script offcpu-onoff --ns -F comm,pid,tid,time,period,event,trace,ip,sym,dso \
  --show-switch-events --show-task-events | gzip -9n \
  > "$here/offcpu-onoff/off-cpu/script.txt.gz"
expect_offcpu offcpu-onoff off-cpu+on-off --on-off
r=$(offcpu_range offcpu-onoff)
expect_offcpu offcpu-onoff "off-cpu+on-off+time-range=$r" --on-off --time-range "$r"
fi

# --- perf archive (test/golden/perf-archive.sh) ---------------------------
# shlib.c and libtiny.c built at /tmp/ffarc and recorded with a build-id
# cache of their own (HOME=/tmp/ffarc/home), then `perf archive`: each case
# keeps perf.data and perf.data.tar.bz2 only (the binaries are nowhere in
# testdata). The expectations are perf script's with the archive unpacked
# into the cache it reads: perf 6.1's --symfs DIR makes that DIR/.debug, so
# perf runs with a --symfs holding nothing but the unpacked archive in
# .debug. "archive-fp": frame pointers, cpu-clock:u (no kernel frames, so
# the archive holds only the two objects); "archive-dwarf": --call-graph
# dwarf (not -z: perf record then finds no build ids, and perf archive
# has nothing to bundle), unwound with the CFI of the archive's copies.
if [ "$only" = "" ] || [ "$only" = archive ]; then
ar=/tmp/ffarc
rm -rf "$ar" && mkdir -p "$ar/home" "$ar/fp" "$ar/dwarf"
cp "$here/shlib.c" "$here/libtiny.c" "$ar/"
cd "$ar"
for v in fp dwarf; do
  fp=-fno-omit-frame-pointer
  [ $v = dwarf ] && fp="-g -fomit-frame-pointer"
  gcc -O2 $fp -fPIC -shared -nostdlib -o $v/libtiny.so libtiny.c
  gcc -O2 $fp -fno-stack-protector -nostdlib -o $v/shlib shlib.c \
    -L"$ar/$v" -ltiny -Wl,-rpath,"$ar/$v"
done
for c in archive-fp archive-dwarf; do
  rm -rf "${here:?}/$c" && mkdir -p "$here/$c"
done
HOME=$ar/home perf record -q -F 299 -g -e cpu-clock:u \
  -o "$here/archive-fp/perf.data" fp/shlib 12000 2>/dev/null
HOME=$ar/home perf record -q -F 99 --call-graph dwarf,2048 \
  -e cpu-clock:u -o "$here/archive-dwarf/perf.data" dwarf/shlib 6000 \
  > /dev/null 2>&1
for c in archive-fp archive-dwarf; do
  HOME=$ar/home perf archive "$here/$c/perf.data" > /dev/null
  rm -rf "$ar/symfs" && mkdir -p "$ar/symfs/.debug"
  tar xjf "$here/$c/perf.data.tar.bz2" -C "$ar/symfs/.debug"
  HOME=/nonexistent perf script -i "$here/$c/perf.data" --symfs "$ar/symfs" \
    2>/dev/null | "$collapse" > "$here/$c/default.folded"
done
fi

ls -la "$here"/*/
