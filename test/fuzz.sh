#!/bin/bash
# Bounded fuzzing: every libFuzzer target built under FUZZ_BUILD_DIR/fuzz/
# (default: build-fuzz beside BUILD_DIR, the clang build that
# scripts/bootstrap.sh test sets up; see fuzz/meson.build) runs for FUZZ_SECONDS seconds
# (default 30), seeded from testdata/ (the first 64 KiB of each seed) and
# from the regression inputs of testdata/bad/. A crash, a timeout, a leak,
# an out-of-memory or an UBSan report fails the test and leaves the input
# in the log.
# When no target is built: skipped (exit 77), or failed under CI=true
# (test/missing.sh).
set -u
: "${BUILD_DIR:?}" "${TESTDATA:?}"
seconds=${FUZZ_SECONDS:-30}
fuzz_build=${FUZZ_BUILD_DIR:-$(dirname "$BUILD_DIR")/build-fuzz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=/nonexistent

seeds() {  # the seed files of target $1
  case $1 in
    perf_data_fuzzer)
      ls "$TESTDATA"/perf-data/*/perf.data "$TESTDATA"/bad/perf-data-* \
        "$TESTDATA"/perf-data/fuzz-regressions/* ;;
    perf_script_fuzzer)  # and the off-CPU cases' text (--off-cpu by size)
      ls "$TESTDATA"/perf-script/*.txt "$TESTDATA"/bad/*perf-script*
      for d in "$TESTDATA"/perf-data/offcpu-*/off-cpu/script.txt.gz; do
        gzip -dc "$d" > "$tmp/offcpu-${d//\//_}.txt"
        echo "$tmp/offcpu-${d//\//_}.txt"
      done ;;
    folded_fuzzer | svg_fuzzer)
      ls "$TESTDATA"/flamediff/*.folded "$TESTDATA"/flamesvg/*.folded \
        "$TESTDATA"/flamereport/*.folded "$TESTDATA"/bad/*.folded ;;
    diff_input_fuzzer)
      ls "$TESTDATA"/flamediff/*.folded "$TESTDATA"/bad/*.folded \
        "$TESTDATA"/perf-script/cxx-fp.txt* "$TESTDATA"/perf-data/zstd/perf.data ;;
    tracepoint_formats_fuzzer)  # the tracing data of the tracepoint cases
      for d in "$TESTDATA"/perf-data/weight-*/perf.data; do
        python3 "$(dirname "$0")/tracing_data.py" "$d" "$tmp/tracing-${d//\//_}"
        echo "$tmp/tracing-${d//\//_}"
      done ;;
    kallsyms_fuzzer)
      ls "$TESTDATA"/perf-data/*/kallsyms ;;
    time_range_fuzzer)  # the ranges of the golden cases, one per seed
      local i=0
      cut -f3 "$TESTDATA"/time-range/cases | grep -v '^#' |
        while IFS= read -r r; do
          i=$((i + 1)); printf '%s' "$r" > "$tmp/time-range-seed-$i"
          echo "$tmp/time-range-seed-$i"
        done ;;
    elf_symbols_fuzzer)  # the small ELF files (the first 64 KiB are kept)
      find "$TESTDATA"/perf-data -type f -size -64k -path '*/root/*'
      ls "$TESTDATA"/bad/elf-* ;;
    input_fuzzer)  # every kind the detector tells apart
      ls "$TESTDATA"/perf-script/* "$TESTDATA"/flamediff/*.folded \
        "$TESTDATA"/bad/* "$TESTDATA"/perf-data/zstd/perf.data \
        "$TESTDATA"/perf-data/pipe/perf.data "$TESTDATA"/perf-data/zstd/kallsyms ;;
  esac 2>/dev/null
}

built=0
fail=0
for fuzzer in "$fuzz_build"/fuzz/*_fuzzer; do
  [ -x "$fuzzer" ] || continue
  built=$((built + 1))
  name=$(basename "$fuzzer")
  corpus=$tmp/$name
  mkdir -p "$corpus"
  i=0
  while read -r f; do
    i=$((i + 1))
    head -c 65536 "$f" > "$corpus/seed-$i"
  done < <(seeds "$name")
  if "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$tmp/$name-" "$corpus" \
      > "$tmp/$name.log" 2>&1 &&
      ! grep -q 'runtime error:' "$tmp/$name.log"; then
    echo "ok: $name, $i seeds, $(grep -o 'stat::number_of_executed_units: [0-9]*' \
      "$tmp/$name.log" | grep -o '[0-9]*$' || echo '?') runs in ${seconds}s"
  else
    echo "FAIL: $name found a problem:"
    grep -A30 'ERROR\|SUMMARY' "$tmp/$name.log" | head -60
    for a in "$tmp/$name-"*; do
      [ -f "$a" ] && echo "input ($(basename "$a")): $(base64 -w0 "$a" | head -c 2000)"
    done
    fail=$((fail + 1))
  fi
done
if [ "$built" -eq 0 ]; then
  . "$(dirname "$0")/missing.sh"
  missing "fuzz targets: none built in $fuzz_build (CXX=clang++ meson setup $fuzz_build -Dfuzz=true -Dtests=false -Db_sanitize=address,undefined -Db_lundef=false)"
fi
# Some built but not all: a target left out of the build would never run.
for src in "$(dirname "$0")"/../fuzz/*_fuzzer.cc; do
  name=$(basename "$src" .cc)
  if [ ! -x "$fuzz_build/fuzz/$name" ]; then
    echo "FAIL: $name is not built in $fuzz_build (ninja -C $fuzz_build fuzz/$name)"
    fail=$((fail + 1))
  fi
done
[ "$fail" -eq 0 ]
