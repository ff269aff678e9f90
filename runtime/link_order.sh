#!/usr/bin/env bash
# Regenerates runtime/link_order.txt: the functions dsched runs while it starts, compiles, loads,
# attaches and prints. The link places them together at the front of
# the text, so that start-up maps a few megabytes of the binary instead of most of it: each page
# fault maps the pages around it, and the code start-up touches (LLVM's static constructors and
# back end above all) is otherwise spread over the whole 24 MB.
# Usage: bash runtime/link_order.sh BUILD_DIR   (needs valgrind; runs each script for a moment)
set -euo pipefail
cd "$(dirname "$0")/.."
dsched=$(realpath "${1:?usage: link_order.sh BUILD_DIR}/runtime/dsched")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What start-up does for the scripts users run: one-liners, the listing, the start-up benchmark,
# every example (each stopped by SIGINT once it has traced a while under valgrind) and an error.
runs=(
  "--version"
  "-l -n sched:::"
  "-q -n BEGIN{exit(0);}"
  "-q -n BEGIN{x=} "
  "-q -s bench/startup/sched30.d"
)
for example in examples/*.d; do runs+=("-q -s $example"); done

n=0
for run in "${runs[@]}"; do
  n=$((n + 1))
  # shellcheck disable=SC2086 # each run is a command line, split on purpose
  timeout -s INT 10 valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$n.out" \
    "$dsched" $run >/dev/null 2>&1 || true
done

# Callgrind names each function once per profile, as fn=(id) name or cfn=(id) name; a static
# function that several files define gets a 'N suffix. The order is the profiles' (the simplest
# runs first), not sorted: a one-liner then touches the front of the group only, where sorting the
# list raised its resident memory from 19 to 22 MB.
for ((i = 1; i <= n; i++)); do
  sed -nE "s/^c?fn=\([0-9]+\) ([^']*).*/\1/p" "$work/$i.out"
done | awk '!seen[$0]++' >"$work/used"
nm --defined-only "$dsched" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u >"$work/defined"
awk 'NR == FNR {defined[$0] = 1; next} $0 in defined' "$work/defined" "$work/used" >runtime/link_order.txt
echo "runtime/link_order.txt: $(wc -l <runtime/link_order.txt) functions"
