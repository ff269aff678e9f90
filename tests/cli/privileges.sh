#!/usr/bin/env bash
# Usage: privileges.sh DSCHED
# Run as `nobody`, without capabilities: tracing is refused with one line naming what is missing
# (exit 1, no libbpf messages); compiling and listing still work.
set -u
dsched=$1
source "$(dirname "$0")/checks.sh"
only_as_root "cannot switch to nobody"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --bounding-set=-all "$@"; }

err=$(as_nobody timeout 20 "$dsched" -n 'BEGIN { exit(0); }' 2>&1 >/dev/null)
status=$?
[ "$status" -eq 1 ] || fail "as nobody: exit $status (expected 1)"
[ "$(grep -c . <<<"$err")" -eq 1 ] || fail "as nobody: not one line: $err"
grep -q '^dsched: tracing needs root, or the capabilities CAP_BPF and CAP_PERFMON' <<<"$err" ||
  fail "as nobody: message: $err"
grep -qi libbpf <<<"$err" && fail "as nobody: libbpf's messages shown: $err"
as_nobody "$dsched" -e -n 'BEGIN { exit(0); }' >/dev/null 2>&1 || fail "as nobody: -e failed"
as_nobody "$dsched" -l -P sched >/dev/null 2>&1 || fail "as nobody: -l failed"

finish
