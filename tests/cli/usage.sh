#!/bin/bash
# Usage: usage.sh DSCHED
# Usage errors exit 2 with the message and the usage text on stderr (an option that cannot be set
# exits 1 with its reason alone); -h, --help and --version exit 0
# with their text on stdout; a script file that cannot be read exits 1 naming the file.
set -u
dsched=$1
out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
failures=0

fail() {
  failures=$((failures + 1))
  echo "FAIL: dsched $1: $2"
  sed 's/^/  stdout: /' "$out" | head -5
  sed 's/^/  stderr: /' "$err" | head -5
}

# expect STATUS STDERR_TEXT ARGS...: exit STATUS, stderr contains STDERR_TEXT (if not empty).
expect() {
  local status=$1 text=$2
  shift 2
  timeout 20 "$dsched" "$@" >"$out" 2>"$err"
  local actual=$?
  [ "$actual" -eq "$status" ] || fail "$*" "exit status $actual (expected $status)"
  [ -z "$text" ] || grep -qF -- "$text" "$err" || fail "$*" "stderr lacks '$text'"
}

# usage_error TEXT ARGS...: exit 2, "dsched: TEXT" then the usage text on stderr, nothing on stdout.
usage_error() {
  local text=$1
  shift
  expect 2 "dsched: $text" "$@"
  grep -q '^Usage: dsched ' "$err" || fail "$*" "no usage text on stderr"
  [ -s "$out" ] && fail "$*" "unexpected output on stdout"
  [ "$(head -n 1 "$err")" = "dsched: $text" ] || fail "$*" "first stderr line is not 'dsched: $text'"
}

usage_error "no probes specified: use -s script, -n description or -P provider"
usage_error "no probes specified: use -s script, -n description or -P provider" -q
usage_error "no probes specified: use -s script, -n description or -P provider" -e
usage_error "invalid option -- 'Q'" -Q -n BEGIN
usage_error "invalid option '--bogus'" --bogus -n BEGIN
usage_error "option requires an argument -- 's'" -s
usage_error "option requires an argument -- 'n'" -q -n
usage_error "option requires an argument -- 'x'" -n BEGIN -x
usage_error "invalid process ID: abc" -p abc -n BEGIN
usage_error "invalid process ID: 0" -p 0 -n BEGIN
usage_error "invalid option -x =4k" -x =4k -n BEGIN
usage_error "only one of -c and -p may be given" -c true -p 1 -n BEGIN
# option_error TEXT ARGS...: exit 1 as dtrace(1) fails to set an option, the one line "dsched: TEXT"
# on stderr (the reason says it all, as in DTrace: no usage text), nothing on stdout.
option_error() {
  local text=$1
  shift
  expect 1 "dsched: $text" "$@"
  [ "$(cat "$err")" = "dsched: $text" ] || fail "$*" "stderr is not the one line 'dsched: $text'"
  [ -s "$out" ] && fail "$*" "unexpected output on stdout"
}

# -x: an option is known, implemented and given a valid value, or refused before anything runs.
option_error "unrecognized option: frobnicate" -x frobnicate -n BEGIN
option_error "option agghist is not supported" -x agghist -n BEGIN
option_error "option temporal is not supported" -x temporal -n BEGIN
option_error "invalid value for option bufpolicy: wrap" -x bufpolicy=wrap -n BEGIN
option_error "invalid value for option bufsize: lots" -x bufsize=lots -n BEGIN
option_error "invalid value for option quiet: please" -x quiet=please -n BEGIN
option_error "option strsize requires a value" -x strsize -n BEGIN
usage_error "invalid --dump stage 'everything': use ast, types or ir" --dump=everything -n BEGIN
option_error "invalid value for option bufsize: big" -b big -n BEGIN
option_error "invalid value for option stdc: q" -X q -n BEGIN
usage_error "option requires an argument -- 'X'" -n BEGIN -X
usage_error "invalid probe ID: x1" -i x1
usage_error "invalid probe ID: 0" -i 0
usage_error 'invalid probe description "a:b:c": [provider:]module expected' -m a:b:c
usage_error 'invalid probe description "a:b": provider expected' -P a:b
usage_error 'invalid probe description "p:m:f:n": [[provider:]module:]function expected' -f p:m:f:n

# A trace buffer larger than the ring buffer can be, or of no size, is refused, naming the option and the value.
option_error "invalid value for option bufsize: 2g (the trace buffer holds at most 1g)" -e -b 2g -n BEGIN
option_error "invalid value for option bufsize: 1t (the trace buffer holds at most 1g)" -e -x bufsize=1t -n BEGIN
option_error "invalid value for option bufsize: 0" -e -x bufsize=0 -n BEGIN
usage_error "-c requires a command to run" -c '' -n BEGIN
usage_error "-o requires a file name" -o '' -n BEGIN

# refused FLAG...: flags that need a kernel-resident DTrace: exit 2, one line saying why.
refused() {
  expect 2 "" "$@" -n BEGIN
  [ "$(wc -l <"$err")" -eq 1 ] || fail "$*" "not one line on stderr"
  grep -q "^dsched: -" "$err" || fail "$*" "stderr does not name the flag"
  [ -s "$out" ] && fail "$*" "unexpected output on stdout"
}
for flag in -a -A -G -32 -64; do refused "$flag"; done
refused -h -s /dev/null

# -V: the D interface version on stdout.
expect 0 "" -V
grep -qE '^dsched: Sun D 1\.[0-9]+ \(dsched [0-9.]+\)$' "$out" || fail -V "stdout is not the D version"

# Flags that compile: each accepted with -e (no tracing).
for args in "-b 8m" "-F" "-H -C" "-X a -C" "-X s -C" "-Z -n nosuch:::probe" "-m vmlinux" \
            "-m sched:vmlinux {}" "-P sched /pid == 1/ { @ = count(); }" "-f vmlinux: { }" "-i 1"; do
  read -r -a words <<<"$args"
  if [[ $args == -P* || $args == "-m sched:vmlinux {}" || $args == "-f vmlinux: { }" ]]; then
    expect 0 "" -e "${words[0]}" "${args#* }"
  else
    expect 0 "" -e "${words[@]}" -n BEGIN
  fi
done

# Help and version: exit 0, text on stdout, nothing on stderr.
for flag in -h --help; do
  expect 0 "" "$flag"
  grep -q '^Usage: dsched ' "$out" || fail "$flag" "no usage text on stdout"
  [ -s "$err" ] && fail "$flag" "unexpected output on stderr"
done
expect 0 "" --version
grep -qE '^dsched [0-9]+\.[0-9]+' "$out" || fail --version "stdout is not 'dsched VERSION'"
[ "$(wc -l <"$out")" -eq 1 ] || fail --version "more than one line on stdout"

# A script file that does not exist: exit 1, the message names the file and the reason.
missing=/nonexistent-dir/missing-script.d
for mode in -e ""; do
  expect 1 "dsched: failed to open $missing: No such file or directory" $mode -s "$missing"
  grep -q '^Usage:' "$err" && fail "$mode -s $missing" "usage text printed for a run-time error"
done

echo "$failures failed"
[ "$failures" -eq 0 ]
