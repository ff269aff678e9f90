#!/usr/bin/env bash
# Usage: options.sh DSCHED   (needs root: the programs run)
# Options that change the output, set each way DTrace allows: flowindent by -F, -x, #pragma D
# option and setopt(); oformat by -x and #pragma D option; oformat=xml refused; an argument the
# script never reads is an error unless argref says arguments may go unused; aggpercpu by -x and
# #pragma D option prints each CPU's value after the total, and JSON holds them under per-cpu;
# sizes below what DTrace takes (strsize under 2, a bufsize or aggsize that cannot hold one record
# or entry) refused with the option and the value named; ftruncate() empties the -o file so far,
# freopen() sends what follows to another file and freopen("") back, and needs -w; records that
# run past the end of a small trace buffer print whole; lockmem sets the locked-memory limit.
set -u
dsched=$1
source "$(dirname "$0")/checks.sh"
only_as_root "the programs cannot run"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

flow_heading=$(printf '%3s %-41s' CPU FUNCTION)
flow_line_re='^ +[0-9]+ \| :BEGIN +7$'
for way in "-F" "-x flowindent" "pragma"; do
  if [ "$way" = pragma ]; then
    printf '#pragma D option flowindent\nBEGIN { trace(7); exit(0); }\n' >"$dir/flow.d"
    out=$("$dsched" -s "$dir/flow.d" 2>/dev/null)
  else
    out=$("$dsched" $way -n 'BEGIN { trace(7); exit(0); }' 2>/dev/null)
  fi
  [ "$(head -n 1 <<<"$out")" = "$flow_heading" ] || fail "flowindent by $way: heading is not '$flow_heading': $out"
  grep -qE "$flow_line_re" <<<"$out" || fail "flowindent by $way: no '| :BEGIN' line: $out"
done
# As in dtrace(1), quiet leaves the flow column and its heading, and drops the end of each line.
out=$("$dsched" -Fq -n 'BEGIN { printf("x\n"); exit(0); }' 2>/dev/null)
[ "$(head -n 1 <<<"$out")" = "$flow_heading" ] && grep -qE '^ +[0-9]+ \| :BEGIN +x$' <<<"$out" ||
  fail "-Fq: the flow column is missing: $out"
out=$("$dsched" -n 'BEGIN { setopt("flowindent"); } BEGIN { trace(7); exit(0); }' 2>/dev/null)
grep -qE "$flow_line_re" <<<"$out" || fail "setopt(\"flowindent\"): the next firing is not indented: $out"

printf '#pragma D option oformat=json\nBEGIN { trace(8); exit(0); }\n' >"$dir/json.d"
out=$("$dsched" -s "$dir/json.d" 2>/dev/null)
[ "$(jq -c '.output' <<<"$out")" = '[{"value":8}]' ] || fail "#pragma D option oformat=json: $out"
out=$("$dsched" -x oformat=json -n 'BEGIN { trace(8); exit(0); }' 2>/dev/null)
[ "$(jq -r '.name' <<<"$out")" = BEGIN ] || fail "-x oformat=json: $out"
err=$("$dsched" -x oformat=xml -n 'BEGIN { exit(0); }' 2>&1 >/dev/null)
[ $? -eq 1 ] && grep -q '^dsched: option oformat=xml is not supported$' <<<"$err" || fail "oformat=xml: $err"

err=$("$dsched" -e -n 'BEGIN { trace($$1); exit(0); }' used unused 2>&1 >/dev/null)
[ $? -eq 1 ] || fail "an unread argument was accepted"
[ "$err" = "dsched: invalid probe specifier BEGIN { trace(\$\$1); exit(0); }: extraneous argument 'unused' (\$2 is not referenced)" ] ||
  fail "unread argument: $err"
"$dsched" -e -x argref -n 'BEGIN { exit(0); }' unused || fail "-x argref: an unread argument was refused"
printf '#pragma D option argref\nBEGIN { exit(0); }\n' >"$dir/argref.d"
"$dsched" -e -s "$dir/argref.d" unused || fail "#pragma D option argref: an unread argument was refused"
"$dsched" -e -n 'BEGIN { trace($#); exit(0); }' a b || fail "\$# reads the arguments: they were refused as unread"

# aggpercpu: profile-997 fires on every CPU; each CPU's count follows the total, one "[CPU n]" line
# per CPU, and they add up to it; with JSON, per-cpu holds the same values.
cpus=$(( $(sed "s/.*[-,]//" /sys/devices/system/cpu/possible) + 1 ))  # the CPUs per-CPU maps hold
percpu='profile-997 { @ = count(); } tick-200ms { exit(0); }'
printf '#pragma D option aggpercpu\n%s\n' "$percpu" >"$dir/percpu.d"
for way in "-x aggpercpu -n" "-s"; do
  if [ "$way" = -s ]; then out=$("$dsched" -q -s "$dir/percpu.d" 2>&1); else out=$("$dsched" -q -x aggpercpu -n "$percpu" 2>&1); fi
  total=$(grep -E '^ +[0-9]+$' <<<"$out" | head -n 1 | tr -d ' ')
  [ "$(grep -cE '^    \[CPU [0-9]+\] +[0-9]+$' <<<"$out")" -eq "$cpus" ] || fail "aggpercpu by $way: not one line per CPU: $out"
  [ "$(grep -oE '^    \[CPU [0-9]+\]' <<<"$out" | grep -oE '[0-9]+' | tr '\n' ' ')" = "$(seq -s ' ' 0 $((cpus - 1))) " ] ||
    fail "aggpercpu by $way: CPUs not in order: $out"
  sum=$(grep -E '^    \[CPU' <<<"$out" | awk '{ s += $3 } END { print s + 0 }')
  [ -n "$total" ] && [ "$total" -gt 0 ] && [ "$sum" -eq "$total" ] || fail "aggpercpu by $way: CPUs add up to $sum, total $total: $out"
done
out=$("$dsched" -q -x aggpercpu -x oformat=json -n "$percpu" 2>/dev/null)
jq -e --argjson cpus "$cpus" 'select(.["aggregation-data"]) | .["aggregation-data"][0] |
  (.["per-cpu"] | length) == $cpus and ([.["per-cpu"][].count] | add) == .count and .count > 0 and
  ([.["per-cpu"][].cpu] == [range($cpus)])' <<<"$out" >/dev/null || fail "aggpercpu JSON: $out"
out=$("$dsched" -q -x oformat=json -n "$percpu" 2>/dev/null)
jq -e 'select(.["aggregation-data"]) | .["aggregation-data"][0] | has("per-cpu") | not' <<<"$out" >/dev/null ||
  fail "JSON without aggpercpu holds per-cpu: $out"

refused() {  # refused WHAT EXPECTED_STDERR DSCHED_ARGS...
  local what=$1 expected=$2
  shift 2
  local err
  err=$("$dsched" -e "$@" 2>&1 >/dev/null)
  [ $? -ne 0 ] && grep -qF -- "$expected" <<<"$err" || fail "$what: $err"
}
refused "strsize=1" "dsched: invalid value for option strsize: 1 (a string holds at least 2 characters)" \
  -x strsize=1 -n 'BEGIN { exit(0); }'
refused "bufsize=0" "dsched: invalid value for option bufsize: 0" -x bufsize=0 -n 'BEGIN { exit(0); }'
# exit(0)'s record: the 16-byte header and the 4-byte status, 8-aligned; the ring adds 8 to it.
refused "bufsize=31" "invalid value for option bufsize: 31 (the clause for dtrace:::BEGIN records 24 bytes and the buffer adds 8 to each record)" \
  -x bufsize=31 -n 'BEGIN { exit(0); }'
"$dsched" -e -x bufsize=32 -n 'BEGIN { exit(0); }' || fail "bufsize=32 holds exit()'s record but was refused"
# count()'s entry keyed by an int: a 4-byte key (every key component is an int) and the 8-byte count.
refused "aggsize=8" "invalid value for option aggsize: 8 (an entry of @c takes 12 bytes)" \
  -x aggsize=8 -n 'BEGIN { @c[1] = count(); exit(0); }'
"$dsched" -e -x aggsize=12 -n 'BEGIN { @c[1] = count(); exit(0); }' || fail "aggsize=12 holds one entry but was refused"
# Without keys: the aggregation's own 8-byte key, the count and the word that marks it set.
refused "aggsize=16" "invalid value for option aggsize: 16 (an entry of @c takes 24 bytes)" \
  -x aggsize=16 -n 'BEGIN { @c = count(); exit(0); }'
"$dsched" -e -x aggsize=24 -n 'BEGIN { @c = count(); exit(0); }' || fail "aggsize=24 holds @c but was refused"

# lockmem sets dsched's locked-memory limit (RLIMIT_MEMLOCK, the kernel's rlim[8]) before it loads
# anything, to a size or unlimited; BEGIN runs in dsched's own process and reads it back.
# Lowering it is always allowed; raising it needs CAP_SYS_RESOURCE, and without it the run goes on
# and says so, as DTrace for Linux goes on.
memlock='BEGIN { printf("%u\n", curthread->signal->rlim[8].rlim_cur); exit(0); }'
out=$("$dsched" -q -x lockmem=4k -n "$memlock" 2>&1)
[ "$out" = 4096 ] || fail "lockmem=4k: $out"
printf '#pragma D option lockmem=unlimited\n%s\n' "$memlock" >"$dir/lockmem.d"
out=$("$dsched" -q -s "$dir/lockmem.d" 2>&1)
[ "$out" = 18446744073709551615 ] ||
  grep -qx "dsched: cannot set the locked-memory limit to unlimited: Operation not permitted" <<<"$out" ||
  fail "lockmem=unlimited: $out"
refused "lockmem=lots" "dsched: invalid value for option lockmem: lots" -x lockmem=lots -n 'BEGIN { exit(0); }'

"$dsched" -q -o "$dir/trunc.out" -n 'BEGIN { printf("gone\n"); ftruncate(); printf("kept\n"); exit(0); }' 2>/dev/null
[ "$(cat "$dir/trunc.out")" = kept ] || fail "ftruncate() with -o: the file holds: $(cat "$dir/trunc.out")"
out=$("$dsched" -qw -n "BEGIN { printf(\"one\\n\"); freopen(\"$dir/%s.out\", \"reopened\"); printf(\"two\\n\");
                       freopen(\"\"); printf(\"three\\n\"); exit(0); }" 2>/dev/null)
[ "$out" = "$(printf 'one\nthree')" ] || fail "freopen(): the standard output holds: $out"
[ "$(cat "$dir/reopened.out" 2>/dev/null)" = two ] || fail "freopen(): the file holds: $(cat "$dir/reopened.out" 2>/dev/null)"
err=$("$dsched" -q -n 'BEGIN { freopen("/tmp/x"); }' 2>&1 >/dev/null)
grep -q 'destructive' <<<"$err" || fail "freopen() without -w: $err"

# A 16 KB buffer wraps over and over under 3000 records of 270 bytes: the records that run past its
# end come out whole and in order. A reader late enough to fill it drops records and says so.
cat >"$dir/wrap.d" <<'EOF'
int i;
tick-4000hz /i < 3000/ { printf("%d %s\n", i, substr("abcdefghijklmnopqrstuvwxyz", i % 26)); i++; }
tick-4000hz /i == 3000/ { exit(0); }
EOF
out=$("$dsched" -q -x bufsize=16k -s "$dir/wrap.d" 2>&1)
bad=$(awk -v letters=abcdefghijklmnopqrstuvwxyz '
  /drops? on CPU/ { dropped = 1; next }
  $1 !~ /^[0-9]+$/ || $1 <= last && NR > 1 || $2 != substr(letters, $1 % 26 + 1) { print "line " NR ": " $0; exit }
  { last = $1; n++ }
  END { if (!dropped && n != 3000) print n " records of 3000, and no drops reported" }' <<<"$out")
[ -z "$bad" ] || fail "bufsize=16k, 3000 records: $bad"

finish
