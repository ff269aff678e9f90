#!/usr/bin/env bash
# Usage: listing.sh DSCHED
# -l lists in dtrace(1)'s columns; every way of naming probes (-P -m -f -n -i -s) selects them; a
# description matching nothing is reported and the rest listed; -lv adds stability and argument
# types from the providers.
set -u
dsched=$1
source "$(dirname "$0")/checks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

header=$(printf '%5s %10s %17s %33s %s' ID PROVIDER MODULE FUNCTION NAME)
all=$("$dsched" -l) || fail "-l exited $?"
[ "$(head -n 1 <<<"$all")" = "$header" ] || fail "-l heading is not dtrace's"
grep -qE '^ +[0-9]+ +sched +vmlinux +on-cpu$' <<<"$all" || fail "-l lacks sched:vmlinux::on-cpu"

# names PROBES_TEXT: the NAME column, one a line.
names() { awk 'NR > 1 { print $NF }' <<<"$1" | tr '\n' ' '; }
on_cpu_id=$(awk '$2 == "sched" && $NF == "on-cpu" { print $1 }' <<<"$all")
[ "$(names "$("$dsched" -l -P dtrace)")" = "BEGIN END ERROR " ] || fail "-l -P dtrace"
[ "$(names "$("$dsched" -l -n sched:::on-cpu)")" = "on-cpu " ] || fail "-l -n sched:::on-cpu"
[ "$(names "$("$dsched" -l -i "$on_cpu_id")")" = "on-cpu " ] || fail "-l -i $on_cpu_id"
vmlinux=1  # the heading
for provider in sched proc syscall io lockstat ip tcp udp; do vmlinux=$((vmlinux + $("$dsched" -l -P $provider | wc -l) - 1)); done
[ "$("$dsched" -l -m vmlinux | wc -l)" -eq "$vmlinux" ] || fail "-l -m vmlinux is not the probes of sched, proc, syscall, io, lockstat, ip, tcp and udp"
[ "$("$dsched" -l -m sched:vmlinux | wc -l)" -gt 10 ] || fail "-l -m sched:vmlinux"
[ "$(names "$("$dsched" -l -n 'tick-1sec { exit(0); }')")" = "tick-1sec " ] || fail "-l -n with a clause"

# Nothing matches: as dtrace(1), one line naming the description in full, the others still listed,
# exit 0 (-l implies -Z).
out=$("$dsched" -l -n sched:::no-such-probe -n BEGIN 2>"$dir/err")
status=$?
[ "$status" -eq 0 ] || fail "-l of an unmatched description exited $status"
[ "$(cat "$dir/err")" = "dsched: failed to match sched:::no-such-probe: No probe matches description" ] ||
  fail "message: $(cat "$dir/err")"
[ "$(names "$out")" = "BEGIN " ] || fail "-l: the description that matches was not listed: $out"
err=$("$dsched" -l -n profile 2>&1 >/dev/null) || fail "-l -n profile exited $?"
[ "$err" = "dsched: failed to match :::profile: No probe matches description" ] || fail "message: $err"
out=$("$dsched" -l -P nosuchprovider 2>/dev/null) || fail "-l -P nosuchprovider exited $?"
[ "$out" = "$header" ] || fail "-l -P nosuchprovider printed more than the heading"
printf 'nosuch:::entry {}\nBEGIN {}\n' >"$dir/unmatched.d"
[ "$(names "$("$dsched" -l -s "$dir/unmatched.d" 2>/dev/null)")" = "BEGIN " ] || fail "-l -s with an unmatched clause"
"$dsched" -l -i 99999 >/dev/null 2>&1
[ $? -eq 1 ] || fail "-l -i 99999 did not exit 1"

# -lv: stability and argument types, as the providers declare them.
lv=$("$dsched" -lv -n sched:::enqueue) || fail "-lv exited $?"
for line in $'\t\targs[0]: lwpsinfo_t *' $'\t\targs[1]: psinfo_t *' $'\t\targs[2]: cpuinfo_t *' \
            $'\tProbe Description Attributes' $'\tArgument Attributes' $'\t\tDependency Class: ISA'; do
  grep -qxF -- "$line" <<<"$lv" || fail "-lv sched:::enqueue lacks '$line'"
done
begin=$("$dsched" -lv -n BEGIN)
grep -qxF $'\t\tIdentifier Names: Stable' <<<"$begin" || fail "-lv BEGIN is not Stable"
grep -qxF $'\t\tNone' <<<"$begin" || fail "-lv BEGIN lists argument types"
# Every probe of -lv has its three attribute blocks.
every=$("$dsched" -lv)
probes=$(($(grep -c . <<<"$all") - 1))
[ "$(grep -c $'^\tArgument Types$' <<<"$every")" -eq "$probes" ] || fail "-lv: not one Argument Types per probe"

# -v while tracing: dtrace's stability report for each description on stdout, before the
# first firing: the weakest attributes of the description's given fields (an empty provider field
# vouches for nothing: Unstable) and of what the statements use.
report() {  # report WHAT DESCRIPTION_ATTRIBUTES STATEMENT_ATTRIBUTES: the expected text
  local IFS=/
  set -- "$1" $2 $3
  printf '\nStability attributes for %s:\n\n' "$1"
  printf '\tMinimum Probe Description Attributes\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n\n' "$2" "$3" "$4"
  printf '\tMinimum Statement Attributes\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n\t\tDependency Class: %s\n' "$5" "$6" "$7"
}
out=$("$dsched" -v -n 'BEGIN { exit(0); }' 2>/dev/null)
[[ "$out" == "$(report 'description BEGIN ' Unstable/Unstable/Common Stable/Stable/Common)"$'\n\n'"CPU"* ]] ||
  fail "-v BEGIN: $out"
# -e -v: the report, then each description as written with its probe's blocks.
out=$("$dsched" -ev -n 'dtrace:::BEGIN { trace(curthread->pid); }')
[[ "$out" == "$(report 'description dtrace:::BEGIN ' Stable/Stable/Common Stable/Private/Common)"$'\n\n'"dtrace:::BEGIN"$'\n\n\tProbe Description Attributes'* ]] ||
  fail "-ev curthread: $out"
out=$("$dsched" -ev -n 'sched:::enqueue { trace(args[0]->pr_pri); } sched:::dequeue { trace(ntohs(1)); }')
[[ "$out" == "$(report 'description sched:::enqueue ' Evolving/Evolving/ISA Evolving/Evolving/ISA)"* ]] ||
  fail "-ev args[]: $out"
printf 'syscall::read:entry /probefunc == "read"/ { trace((uint64_t)&`schedule); }\n' >"$dir/symbol.d"
out=$("$dsched" -ev -s "$dir/symbol.d")
[[ "$out" == "$(report "script $dir/symbol.d" Private/Private/ISA Private/Private/Unknown)"* ]] ||
  fail "-ev kernel symbol: $out"

finish
