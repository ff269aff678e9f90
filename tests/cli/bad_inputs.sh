#!/bin/bash
# Usage: bad_inputs.sh DSCHED BAD_DIR
# Every BAD_DIR/NAME.d, compiled with `dsched -x errtags -e -s NAME.d` from inside BAD_DIR, must
# exit 1 and print exactly NAME.err on standard error (and nothing on standard output).
set -u
dsched=$1
cd "$2" || exit 1
actual=$(mktemp) && stdout=$(mktemp) || exit 1
trap 'rm -f "$actual" "$stdout"' EXIT
checked=0 failures=0
for script in *.d; do
  name=${script%.d}
  checked=$((checked + 1))
  timeout 20 "$dsched" -x errtags -e -s "$script" >"$stdout" 2>"$actual"
  status=$?
  problem=""
  [ "$status" -eq 1 ] || problem="exit status $status (expected 1)"
  [ -s "$stdout" ] && problem="${problem:+$problem; }output on stdout"
  if ! cmp -s "$actual" "$name.err"; then
    problem="${problem:+$problem; }stderr differs from $name.err"
  fi
  if [ -n "$problem" ]; then
    failures=$((failures + 1))
    echo "FAIL: $script: $problem"
    cmp -s "$actual" "$name.err" || diff "$name.err" "$actual" | head -20
  fi
done
echo "$checked bad inputs checked, $failures failed"
# The set is meant to cover every front-end error path; an empty glob would pass vacuously.
[ "$checked" -ge 40 ] || { echo "FAIL: only $checked bad inputs found"; exit 1; }
[ "$failures" -eq 0 ]
