#!/usr/bin/env bash
# Usage: destructive.sh DSCHED   (needs root: the programs run)
# Destructive actions, each needing -w: stop() stops the process that fired the probe (it is left
# in state T until SIGCONT), raise() sends it the signal; chill() of more than DTrace's 500 ms is an
# illegal-operation fault that ERROR sees; copyoutstr() rewrites what a process is about to write,
# or, where kernel lockdown forbids writes to user memory, the load fails saying so;
# breakpoint() and panic() are refused with the reason.
set -u
dsched=$1
source "$(dirname "$0")/checks.sh"
only_as_root "the programs cannot run"
dsched_err=$(mktemp)
trap 'rm -f "$dsched_err"' EXIT

state_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1; }

# A process that writes without pause, for the probes to fire in.
yes >/dev/null &
pid=$!
timeout 20 "$dsched" -qw -n "syscall::write:entry /pid == $pid/ { stop(); exit(0); }" || fail "stop(): dsched failed"
for _ in $(seq 50); do [ "$(state_of "$pid")" = T ] && break; sleep 0.1; done
[ "$(state_of "$pid")" = T ] || fail "stop(): the process is in state $(state_of "$pid"), not T (stopped)"
kill -CONT "$pid"
kill -KILL "$pid"
wait "$pid" 2>/dev/null

yes >/dev/null &
pid=$!
timeout 20 "$dsched" -qw -n "syscall::write:entry /pid == $pid/ { raise(SIGUSR1); exit(0); }" || fail "raise(): dsched failed"
{ wait "$pid"; } 2>/dev/null
status=$?
[ "$status" = $((128 + 10)) ] || fail "raise(SIGUSR1): the process ended with status $status, not killed by SIGUSR1"

out=$(timeout 20 "$dsched" -qw -n 'BEGIN { chill(600000000); } ERROR { printf("fault %d\n", arg4); exit(0); }' 2>/dev/null)
[ "$out" = "fault 3" ] || fail "chill() over 500 ms: ERROR saw '$out', not fault 3 (illegal operation)"

out=$(timeout 20 "$dsched" -qw -n 'syscall::write:entry /pid == $target && arg0 == 1/ { copyoutstr("HELLO", arg1, 5); }' \
      -c "/bin/echo hello world" 2>"$dsched_err")
if grep -q "kernel lockdown forbids it" "$dsched_err"; then
  grep -q "copyoutstr()" "$dsched_err" || fail "copyoutstr() under lockdown: the error does not name it: $(cat "$dsched_err")"
else
  [ "$out" = "HELLO world" ] || fail "copyoutstr(): the process wrote '$out' ($(cat "$dsched_err"))"
fi

for action in breakpoint panic; do
  err=$("$dsched" -w -e -n "BEGIN { $action(); }" 2>&1 >/dev/null)
  grep -q "$action() is not supported on Linux" <<<"$err" || fail "$action(): $err"
done
err=$("$dsched" -n 'BEGIN { chill(1); }' 2>&1 >/dev/null)
grep -q 'destructive' <<<"$err" || fail "chill() without -w: $err"

# As dtrace(1), a run that allows destructive actions says so, unless quiet.
err=$("$dsched" -w -n 'BEGIN { exit(0); }' 2>&1 >/dev/null)
grep -qx 'dsched: allowing destructive actions' <<<"$err" || fail "-w: no notice: $err"
err=$("$dsched" -qw -n 'BEGIN { exit(0); }' 2>&1 >/dev/null)
[ -z "$err" ] || fail "-qw: stderr: $err"

finish
