#!/bin/bash
# Usage: cli.sh DSCHED
# The command line on bad input and bad endings: each case fails at once with one clear message
# and the right exit status, or ends cleanly. Cases that load programs need root.
set -u
dsched=$1
. "$(dirname "$0")/../cli/checks.sh"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
out=$work/out err=$work/err

# expect STATUS STDERR ARGS...: within 10 seconds, exit STATUS with exactly STDERR on stderr.
expect() {
  local status=$1 text=$2
  shift 2
  timeout 10 "$dsched" "$@" >"$out" 2>"$err"
  local actual=$?
  [ "$actual" -eq "$status" ] || fail "dsched $*: exit status $actual (expected $status)"
  [ "$(cat "$err")" = "$text" ] || fail "dsched $*: stderr is '$(head -c 300 "$err")', expected '$text'"
}

# wait_attached PID: waits (20 seconds at most) until the dsched run PID has attached its probes.
wait_attached() {
  for _ in $(seq 200); do
    ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'anon_inode:bpf_link' && return 0
    sleep 0.1
  done
  fail "dsched never attached its probes"
}

# -s on what is not a script file: one line at once, exit 1.
mkfifo "$work/fifo"
expect 1 "dsched: failed to open $work: Is a directory" -e -s "$work"
expect 1 "dsched: failed to open $work/fifo: a FIFO with no writer" -e -s "$work/fifo"
expect 1 "dsched: failed to open /dev/zero: not a regular file" -e -s /dev/zero
# A pipe with a writer is a script like any other.
timeout 10 "$dsched" -e -s <(echo 'BEGIN { exit(0); }') 2>"$err" || fail "-s <(...): $(cat "$err")"

# Parameter checks are located compile errors that -e sees, never an abort.
expect 1 "dsched: invalid probe specifier BEGIN { @ = llquantize(1, 10, 2, 6, 80); exit(0); }: llquantize() steps per magnitude must be a multiple of the factor and divide a power of it
  --> <command line>:1:13
 1 | BEGIN { @ = llquantize(1, 10, 2, 6, 80); exit(0); }
   |             ^" -e -n 'BEGIN { @ = llquantize(1, 10, 2, 6, 80); exit(0); }'
expect 1 "dsched: invalid probe specifier profile-1nsec { @ = count(); }: profile:::profile-1nsec fires more often than every 200 microseconds, the shortest interval of the profile provider
  --> <command line>:1:1
 1 | profile-1nsec { @ = count(); }
   | ^" -e -n 'profile-1nsec { @ = count(); }'
timeout 10 "$dsched" -e -n 'profile-5000 { @ = count(); }' 2>"$err" || fail "profile-5000 (200us) refused: $(cat "$err")"

# A script writing a file is destructive: refused without -w.
expect 1 "dsched: invalid probe specifier BEGIN { ctprof_snapshot(\"$work/x.ctprof\"); exit(0); }: ctprof_snapshot() is a destructive action: run with -w or #pragma D option destructive
  --> <command line>:1:9
 1 | BEGIN { ctprof_snapshot(\"$work/x.ctprof\"); exit(0); }
   |         ^" -n "BEGIN { ctprof_snapshot(\"$work/x.ctprof\"); exit(0); }"
# As dtrace -e, compiling alone does not ask for the permission: enabling does.
timeout 10 "$dsched" -e -n 'BEGIN { system("true"); }' 2>"$err" || fail "-e refused a destructive action: $(cat "$err")"

only_as_root "the cases below load programs"

# Write errors: one message, exit status 1, nothing else on stderr.
hello='BEGIN { printf("hello\n"); exit(0); }'
timeout 10 "$dsched" -qn "$hello" >/dev/full 2>"$err"
status=$?
[ $status -eq 1 ] || fail "> /dev/full: exit status $status"
[ "$(cat "$err")" = "dsched: write error on stdout: No space left on device" ] || fail "> /dev/full: $(cat "$err")"
expect 1 "dsched: write error on /dev/full: No space left on device" -qn "$hello" -o /dev/full
timeout 10 "$dsched" -qn "$hello" >&- 2>"$err"
status=$?
[ $status -eq 1 ] || fail "closed stdout: exit status $status"
[ "$(cat "$err")" = "dsched: write error on stdout: Bad file descriptor" ] || fail "closed stdout: $(cat "$err")"
# A run printing all the time stops at the first failed write, reported once.
start=$(date +%s)
timeout 20 "$dsched" -qn 'tick-1ms { printf("%d\n", i++); } tick-10s { exit(0); }' >/dev/full 2>"$err"
status=$?
[ $status -eq 1 ] || fail "flood > /dev/full: exit status $status"
[ "$(cat "$err")" = "dsched: write error on stdout: No space left on device" ] || fail "flood > /dev/full: $(cat "$err")"
[ $(($(date +%s) - start)) -lt 5 ] || fail "flood > /dev/full: the trace went on after the write error"

# bufpolicy=fill: tracing stops at the first record that no longer fits in bufsize; what was
# traced before it prints, in order, then END and the aggregations.
timeout 30 "$dsched" -qn 'tick-1ms { printf("%d\n", i++); @ = count(); } tick-60s { exit(0); }
  END { printf("end\n"); }' -x bufpolicy=fill -b 4k >"$out" 2>"$err"
status=$?
[ $status -eq 0 ] || fail "bufpolicy=fill: exit status $status: $(head -c 300 "$err")"
lines=$(grep -c '^[0-9][0-9]*$' "$out")
[ "$lines" -gt 0 ] && [ "$lines" -lt 512 ] || fail "bufpolicy=fill: $lines records traced into 4k"
[ "$(grep '^[0-9][0-9]*$' "$out" | head -n "$lines")" = "$(seq 0 $((lines - 1)))" ] || fail "bufpolicy=fill: the records are not 0..$((lines - 1))"
[ "$(grep -v '^[0-9][0-9]*$' "$out" | head -n 1)" = end ] || fail "bufpolicy=fill: END did not print after the records"
tail -n 1 "$out" | grep -Eq '^ +[0-9]+$' || fail "bufpolicy=fill: no aggregation at the end"
[ -s "$err" ] && fail "bufpolicy=fill: stderr: $(head -c 300 "$err")"

# bufpolicy=ring: nothing prints while tracing; at the end each CPU's buffer prints the newest
# records that fit in bufsize, oldest first, then END and the aggregations. tick-1ms fires on one
# CPU, where a record of one integer takes 32 bytes: 1k holds at most 32 of them.
"$dsched" -qn 'tick-1ms { printf("%d\n", i++); @ = count(); } END { printf("end\n"); }' \
  -x bufpolicy=ring -b 1k >"$out" 2>"$err" &
ring=$!
wait_attached $ring
sleep 1
[ -s "$out" ] && fail "bufpolicy=ring: printed while tracing: $(head -c 300 "$out")"
kill -INT $ring
wait $ring
status=$?
[ $status -eq 0 ] || fail "bufpolicy=ring: exit status $status: $(head -c 300 "$err")"
# As dtrace(1) does, the interrupt prints an empty line before what the buffers kept.
[ -z "$(head -n 1 "$out")" ] || fail "bufpolicy=ring: the interrupt's empty line is missing: $(head -c 100 "$out")"
sed -i 1d "$out"
lines=$(grep -c '^[0-9][0-9]*$' "$out")
traced=$(tail -n 1 "$out" | tr -d ' ')
[ "$lines" -gt 0 ] && [ "$lines" -le 32 ] || fail "bufpolicy=ring: $lines records kept in 1k"
[ "$traced" -gt "$lines" ] || fail "bufpolicy=ring: $traced records traced, $lines kept: nothing was overwritten"
[ "$(head -n "$lines" "$out")" = "$(seq $((traced - lines)) $((traced - 1)))" ] ||
  fail "bufpolicy=ring: the records kept are not the newest, $((traced - lines))..$((traced - 1)): $(head -n 3 "$out")"
[ "$(sed -n "$((lines + 1))p" "$out")" = end ] || fail "bufpolicy=ring: END did not print after the records"
[ -s "$err" ] && fail "bufpolicy=ring: stderr: $(head -c 300 "$err")"
# Each CPU has its own ring: profile-997 records on every CPU (each kept busy, as an idle CPU's
# profile probe seldom fires); after Ctrl-C each CPU's newest records print together, oldest
# first, and they end with the last firing the CPU counted. A record of two integers takes 40
# bytes: 1k holds 25 of them per CPU.
busy=()
for cpu in $(seq 0 $(($(nproc) - 1))); do
  timeout 20 nice -n 19 taskset -c "$cpu" sh -c 'while :; do :; done' &
  busy+=($!)
done
"$dsched" -qn 'profile-997 { printf("%d %d\n", cpu, n[cpu]++); @[cpu] = count(); }' \
  -x bufpolicy=ring -b 1k >"$out" 2>"$err" &
ring=$!
wait_attached $ring
sleep 1
kill -INT $ring
wait $ring
status=$?
kill "${busy[@]}"
wait "${busy[@]}" 2>/dev/null
[ $status -eq 0 ] || fail "bufpolicy=ring per CPU: exit status $status: $(head -c 300 "$err")"
grep -E '^[0-9]+ [0-9]+$' "$out" >"$work/records"
cpus_seen=$(cut -d' ' -f1 "$work/records" | uniq | wc -l)
[ "$cpus_seen" -eq "$(nproc)" ] || fail "bufpolicy=ring per CPU: records of $cpus_seen CPUs, $(nproc) online"
[ "$cpus_seen" -eq "$(cut -d' ' -f1 "$work/records" | sort -u | wc -l)" ] || fail "bufpolicy=ring per CPU: CPUs interleave: $(tr '\n' ' ' <"$work/records" | head -c 300)"
for cpu in $(cut -d' ' -f1 "$work/records" | sort -u); do
  mine=$(awk -v c="$cpu" '$1 == c { print $2 }' "$work/records")
  kept=$(grep -c . <<<"$mine")
  counted=$(awk -v c="$cpu" '/^ / && NF == 2 && $1 == c { print $2 }' "$out")  # the aggregation's line
  [ "$kept" -le 25 ] || fail "bufpolicy=ring per CPU: CPU $cpu kept $kept records in 1k"
  [ -n "$counted" ] && [ "$mine" = "$(seq $((counted - kept)) $((counted - 1)))" ] ||
    fail "bufpolicy=ring per CPU: CPU $cpu kept $(tr '\n' ' ' <<<"$mine"), counted $counted"
done
[ -s "$err" ] && fail "bufpolicy=ring per CPU: stderr: $(head -c 300 "$err")"
# exit() ends the run as it is traced; committed speculations are kept when commit() runs, after
# the record of its clause; a discarded one never is; exit()'s status stays.
timeout 30 "$dsched" -qn 'BEGIN { i = 0; } tick-1ms /i < 100/ { s = speculation(); speculate(s); printf("spec %d\n", i); }
  tick-1ms /i < 100/ { printf("plain %d\n", i); } tick-1ms /i < 100 && i % 2 == 0/ { commit(s); }
  tick-1ms /i < 100 && i % 2/ { discard(s); } tick-1ms /i < 100/ { i++; } tick-1ms /i == 100/ { exit(3); }' \
  -x bufpolicy=ring -b 512 >"$out" 2>"$err"
status=$?
[ $status -eq 3 ] || fail "bufpolicy=ring with exit(3): exit status $status: $(head -c 300 "$err")"
expected=$(for i in $(seq 0 99); do echo "plain $i"; [ $((i % 2)) -eq 0 ] && echo "spec $i"; done)
kept=$(grep -c . "$out")
[ "$kept" -gt 0 ] && [ "$kept" -le 16 ] || fail "bufpolicy=ring with speculations: $kept records kept in 512 bytes"
[ "$(grep . "$out")" = "$(echo "$expected" | tail -n "$kept")" ] || fail "bufpolicy=ring with speculations: $(head -c 300 "$out")"

# SIGTERM and SIGINT end a flooding run within a second, printing END's output and the aggregations.
for signal in TERM INT; do
  "$dsched" -qn 'profile-5000 { @ = count(); printf("%d\n", timestamp); } END { printf("end\n"); }' \
    >"$out" 2>"$err" &
  pid=$!
  sleep 2
  before=$(date +%s%N)
  kill -$signal $pid
  for _ in $(seq 1 50); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
  after=$(date +%s%N)
  if kill -0 $pid 2>/dev/null; then
    fail "SIG$signal: still running after $(((after - before) / 1000000)) ms"
    kill -KILL $pid
  fi
  wait $pid
  status=$?
  [ $status -eq 0 ] || fail "SIG$signal: exit status $status"
  [ $(((after - before) / 1000000)) -lt 1000 ] || fail "SIG$signal: took $(((after - before) / 1000000)) ms"
  grep -qx "end" "$out" || fail "SIG$signal: END did not print"
  tail -n 2 "$out" | grep -Eq '^ +[0-9]+$' || fail "SIG$signal: no aggregation at the end"
  [ -s "$err" ] && fail "SIG$signal: stderr: $(head -c 300 "$err")"
done

# The reader of the output going away (| head) ends the run, and with it the -c command.
marker="sleep 100.$$"  # a command line no other process has
timeout 30 "$dsched" -qn 'tick-1ms { printf("%d\n", timestamp); }' -c "$marker" 2>"$err" | head -n 1 >"$out"
status=${PIPESTATUS[0]}
[ "$status" -ne 124 ] || fail "| head: dsched still ran after its reader left"
grep -Eq '^[0-9]+$' "$out" || fail "| head: no first line: $(head -c 100 "$out")"
sleep 0.2
pgrep -f "$marker" >/dev/null && { fail "| head: the -c command was left running"; pkill -f "$marker"; }

# Files a script writes: never through a symbolic link, never over a file that is not a snapshot.
# (The capture's summary lines on stderr vary; the refusal must be among them.)
snapshot_refused() {
  local path=$1 line=$2
  timeout 30 "$dsched" -wqn "BEGIN { ctprof_snapshot(\"$path\", \"--no-jemalloc\"); exit(0); }" >"$out" 2>"$err"
  grep -qxF -- "$line" "$err" || fail "ctprof_snapshot($path): stderr lacks '$line': $(head -c 300 "$err")"
}
echo precious >"$work/target"
ln -s "$work/target" "$work/link"
snapshot_refused "$work/link" "dsched: ctprof_snapshot(): $work/link: is a symbolic link; refusing to write through it"
[ "$(cat "$work/target")" = precious ] || fail "the symlink's target was written"
[ -L "$work/link" ] || fail "the symlink was replaced"
snapshot_refused "$work/target" \
  "dsched: ctprof_snapshot(): $work/target: exists and is not a ctprof snapshot; refusing to replace it"
[ "$(cat "$work/target")" = precious ] || fail "a file that is not a snapshot was replaced"
# A new snapshot appears whole, by rename: no temporary file is left next to it.
timeout 30 "$dsched" -wqn "BEGIN { ctprof_snapshot(\"$work/new.ctprof\", \"--no-jemalloc\"); exit(0); }" >"$out" 2>"$err"
[ -f "$work/new.ctprof" ] || fail "ctprof_snapshot() wrote no snapshot: $(head -c 300 "$err")"
ls -A "$work" | grep -q '\.tmp$' && fail "a temporary file was left behind"

finish
