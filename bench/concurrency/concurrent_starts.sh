#!/bin/bash
# Usage: concurrent_starts.sh DSCHED [N] [-- DSCHED ARGS...]
# Starts N (default 20) instances of dsched at the same moment and prints each one's wall time
# from start to exit, then the median and the maximum (ms). The default script attaches one
# tracepoint and exits at BEGIN, so the time is start-up: compile, load, attach, detach.
set -eu
dsched=$1
count=${2:-20}
shift $(($# >= 2 ? 2 : 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- -qn 'sched:::on-cpu { @ = count(); } BEGIN { exit(0); }'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$count"); do
  (
    while [ ! -e "$work/go" ]; do sleep 0.001; done
    start=$(date +%s%N)
    "$dsched" "$@" >/dev/null 2>"$work/err.$i" || echo "instance $i failed: $(head -c 200 "$work/err.$i")" >&2
    echo $((($(date +%s%N) - start) / 1000000)) >"$work/ms.$i"
  ) &
done
sleep 0.5
touch "$work/go"
wait
sort -n "$work"/ms.* >"$work/all"
echo "instances: $count; ms each: $(tr '\n' ' ' <"$work/all")"
echo "median: $(sed -n "$(((count + 1) / 2))p" "$work/all") ms; max: $(tail -n 1 "$work/all") ms"
