#!/bin/bash
# Usage: soak.sh DSCHED [SECONDS]
# Runs dsched for SECONDS (default 600) with an aggregation whose keys grow by 50 a second (one per
# 20 ms of time) until its map is full (16384 keys by default, after about 330 s), printed every
# 10 s, and samples dsched's resident memory every 10 s. Once the table is full, the memory must
# stay flat: the last sample may exceed the first one taken after the table filled by at most
# 10%. Prints the samples and "flat"/"growing"; exit status 1 when growing. Needs root.
set -u
dsched=$1
seconds=${2:-600}
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
"$dsched" -qn "profile-97 { @keys[timestamp / 20000000] = count(); }
    tick-10s { printa(\"%d %@d\n\", @keys); }
    tick-${seconds}s { exit(0); }" >/dev/null 2>"$work/err" &
pid=$!
fill_s=$((16384 / 50 + 20))
echo "seconds  rss_kb"
filled_rss=
for ((t = 10; t < seconds; t += 10)); do
  sleep 10
  rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status 2>/dev/null) || break
  [ -n "$rss" ] || break
  echo "$t  $rss"
  [ -z "$filled_rss" ] && [ $t -ge $fill_s ] && filled_rss=$rss
  last_rss=$rss
done
wait $pid
status=$?
echo "dsched exit status $status; stderr: $(sort "$work/err" | uniq -c | head -5)"
if [ -z "$filled_rss" ]; then
  echo "too short for the table to fill ($fill_s s)"
elif [ $((last_rss * 10)) -le $((filled_rss * 11)) ]; then
  echo "flat: $filled_rss KB when full, $last_rss KB at the end"
else
  echo "growing: $filled_rss KB when full, $last_rss KB at the end"
  exit 1
fi
