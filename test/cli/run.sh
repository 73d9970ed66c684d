#!/bin/bash
# test/cli/run.sh TOOL: black-box tests of one tool's command line.
#
# Each case is test/cli/TOOL/NAME.cmd, a shell snippet run with bash in a
# fresh temporary directory, with $TOOL (the binary), $BUILD_DIR, $TESTDATA
# and the other tools' directory $TOOLS set. Its stdout, stderr and exit
# status must equal NAME.stdout, NAME.stderr and NAME.exit (a missing
# .stdout/.stderr means "must be empty"). BLESS=1 rewrites them. CLI_MATCH
# (an extended regex) runs only the cases whose names match.
# XDG_CONFIG_HOME is the case's own folder, .config-home, which does not
# exist unless the case writes a configuration file there: a developer's
# own ~/.config/flamefold/config changes no result.
set -u
tool=$1
here=$(cd "$(dirname "$0")" && pwd)
: "${BUILD_DIR:=$here/../../build}"
: "${TESTDATA:=$here/../../testdata}"
export TOOLS=$BUILD_DIR/src/tools
export TOOL=$TOOLS/$tool
export TESTDATA BUILD_DIR
[ -x "$TOOL" ] || { echo "cli: $TOOL not built"; exit 1; }
pass=0; fail=0
for cmd in "$here/$tool"/*.cmd; do
  name=${cmd%.cmd}
  # CLI_MATCH (an extended regex) picks cases by name, e.g. for a sanitizer.
  [[ -n "${CLI_MATCH:-}" && ! $(basename "$name") =~ $CLI_MATCH ]] && continue
  work=$(mktemp -d)
  (cd "$work" && XDG_CONFIG_HOME=$work/.config-home bash "$cmd" > "$work/.stdout" 2> "$work/.stderr"; echo $? > "$work/.exit")
  if [ "${BLESS:-}" = 1 ]; then
    for k in stdout stderr; do
      if [ -s "$work/.$k" ]; then cp "$work/.$k" "$name.$k"; else rm -f "$name.$k"; fi
    done
    cp "$work/.exit" "$name.exit"
  fi
  ok=1
  for k in stdout stderr; do
    if [ -f "$name.$k" ]; then exp="$name.$k"; else exp=/dev/null; fi
    if ! cmp -s "$exp" "$work/.$k"; then
      ok=0
      echo "FAIL $(basename "$name"): $k differs:"
      diff "$exp" "$work/.$k" | head -20
    fi
  done
  if ! cmp -s "$name.exit" "$work/.exit"; then
    ok=0
    echo "FAIL $(basename "$name"): exit $(cat "$work/.exit"), want $(cat "$name.exit" 2>/dev/null)"
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  rm -rf "$work"
done
echo "cli $tool: $pass passed, $fail failed"
[ $fail -eq 0 ]
