# Sourced by the golden scripts: `same WHAT EXPECTED ACTUAL` counts a pass
# when the two files hold the same bytes, else prints "FAIL: WHAT" and the
# start of their diff and counts a failure (in the caller's pass and fail).
same() {
  if cmp -s "$2" "$3"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $1"
    diff "$2" "$3" | head -20
    fail=$((fail + 1))
  fi
}
