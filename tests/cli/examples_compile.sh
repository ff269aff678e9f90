#!/usr/bin/env bash
# Every script under examples/ compiles (front end and code generation) with `dsched -e -s`.
# Usage: examples_compile.sh DSCHED EXAMPLES_DIR
set -u
dsched=$1
examples=$2
failed=0
count=0
for script in "$examples"/*.d; do
  count=$((count + 1))
  # defaultargs: whererun.d takes the process name as $$1.
  if ! err=$("$dsched" -e -x defaultargs -s "$script" 2>&1 >/dev/null); then
    echo "FAIL: $script: $err"
    failed=$((failed + 1))
  fi
done
[ "$count" -ge 10 ] || { echo "FAIL: expected the 8 seed scripts and 2 more, found $count"; exit 1; }
echo "$((count - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
