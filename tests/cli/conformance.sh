#!/bin/bash
# Usage: conformance.sh DSCHED NAME (run inside tests/conformance).
# `dsched -s NAME.d` must exit 0 and print exactly NAME.out on standard output.
set -u
dsched=$1 name=$2
actual=$(mktemp) || exit 1
trap 'rm -f "$actual"' EXIT
timeout 30 "$dsched" -s "$name.d" >"$actual"
status=$?
failed=0
if [ "$status" -ne 0 ]; then
  echo "FAIL: dsched -s $name.d exited with status $status (expected 0)"
  failed=1
fi
if ! cmp -s "$actual" "$name.out"; then
  echo "FAIL: standard output of dsched -s $name.d differs from $name.out:"
  diff <(cat -A "$name.out") <(cat -A "$actual") | head -40
  failed=1
fi
exit $failed
