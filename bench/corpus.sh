# Sourced by bench-svg.sh and bench-zoom.sh: the folded corpora they draw.

# cxx_service_fold OUT FOLD: prints the path of the fold of the 200 MiB
# transcript shaped like large C++ services (gen-perf-script.py --shape
# cxx-service --seed 1, the file bench-fold.sh generates under the same
# name), made in OUT with the flamefold binary FOLD when missing or older
# than the transcript. Returns 1 when it cannot be made.
cxx_service_fold() {
  local out=$1 fold=$2 here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  local transcript=$out/perf-script-cxx-service-200MB-seed1.txt
  local folded=$out/perf-script-cxx-service-200MB-seed1.folded
  mkdir -p "$out"
  if [ ! -s "$transcript" ]; then
    echo "generating $transcript ..." >&2
    python3 "$here/gen-perf-script.py" --size-mb 200 --seed 1 --shape cxx-service \
      -o "$transcript.tmp" && mv "$transcript.tmp" "$transcript" || return 1
  fi
  if [ ! -s "$folded" ] || [ "$folded" -ot "$transcript" ]; then
    "$fold" -q "$transcript" > "$folded.tmp" && mv "$folded.tmp" "$folded" || return 1
  fi
  echo "$folded"
}
