# Sourced by the golden scripts: `same WHAT EXPECTED ACTUAL` counts a pass
# when the two files hold the same bytes, else prints "FAIL: WHAT" and the
# start of their diff and counts a failure (in the caller's pass and fail).
# `golden_start NAME TOOL...` exits 1 when a TOOL is not built, sets those
# counts to 0, makes $tmp, a scratch folder removed on exit, and sets
# $python to 1 when python3 is there (else 0).
golden_start() {
  local name=$1 tool
  shift
  for tool in "$@"; do
    [ -x "$tool" ] || { echo "$name: $tool is not built"; exit 1; }
  done
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  pass=0
  fail=0
  python=0
  command -v python3 > /dev/null && python=1
}
same() {
  if cmp -s "$2" "$3"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $1"
    diff "$2" "$3" | head -20
    fail=$((fail + 1))
  fi
}
