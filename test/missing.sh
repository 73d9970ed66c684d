# Sourced by the test scripts: `missing WHAT` ends a suite that cannot run
# because WHAT is not on this machine. Under CI=true (.ci/run sets it) that is
# a failure, exit 1: CI must run every suite, and scripts/bootstrap.sh test
# installs what they need. Elsewhere the suite is reported skipped (exit 77).
# Either way the message names what is missing and how to get it.
missing() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL: missing $1"
    exit 1
  fi
  echo "SKIP: missing $1"
  exit 77
}
