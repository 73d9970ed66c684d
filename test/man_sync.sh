#!/bin/bash
# Every long option that a tool's --help lists appears in its man page, and
# every tool has a man page. Tools not built yet are skipped.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
: "${BUILD_DIR:=$here/build}"
pass=0; fail=0
for tool in flamefold flamesvg flamediff flamereport flamescope flamebatch flamerecord; do
  bin=$BUILD_DIR/src/tools/$tool
  [ -x "$bin" ] || continue
  page=$here/man/$tool.1
  if [ ! -f "$page" ]; then
    echo "FAIL $tool: no man page $page"; fail=$((fail + 1)); continue
  fi
  # The man page with roff's \- turned into -.
  text=$(sed 's/\\-/-/g' "$page")
  missing=""
  for opt in $("$bin" --help | grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]*//' | sort -u); do
    grep -qF -- "$opt" <<< "$text" || missing="$missing $opt"
  done
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES; do
    grep -q "^\.SH \"\?$section" "$page" || missing="$missing [section $section]"
  done
  if [ -n "$missing" ]; then
    echo "FAIL $tool: missing from man/$tool.1:$missing"; fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "man pages: $pass passed, $fail failed"
[ $fail -eq 0 ]
