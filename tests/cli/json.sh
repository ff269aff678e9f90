#!/usr/bin/env bash
# Usage: json.sh DSCHED EXAMPLES_DIR   (needs root: the examples trace the kernel)
# Every example runs twice over the same one-second ping-pong workload (`dsched --demo-workload`),
# as text and with -x oformat=json. Every line of the JSON (output and messages) parses with jq as
# one object, and it holds what the text holds: histograms as buckets, scalar aggregations as
# their values, printf() text as messages, the matched lines as "matched" objects.
set -u
dsched=$1
examples=$2
source "$(dirname "$0")/checks.sh"
only_as_root "the examples cannot trace"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
workload="$dsched --demo-workload"

for script in "$examples"/*.d; do
  name=$(basename "$script" .d)
  args=()
  [ "$name" = whererun ] && args=(dsched)
  timeout 30 "$dsched" -s "$script" -c "$workload" "${args[@]}" >"$dir/text" 2>"$dir/text.err" ||
    { fail "$name: text run exited $?: $(head -3 "$dir/text.err")"; continue; }
  timeout 30 "$dsched" -x oformat=json -s "$script" -c "$workload" "${args[@]}" >"$dir/json" 2>"$dir/json.err" ||
    { fail "$name: json run exited $?: $(head -3 "$dir/json.err")"; continue; }
  for stream in json json.err; do
    lines=$(grep -c . "$dir/$stream")
    objects=$(jq -c 'select(type == "object")' "$dir/$stream" 2>/dev/null | grep -c .)
    [ "$lines" -eq "$objects" ] || fail "$name: $stream: $lines lines, $objects JSON objects"
  done
  # What the text shows, the JSON holds in its own form.
  if grep -q 'Distribution' "$dir/text"; then
    jq -e 'select(.["aggregation-data"]) | .["aggregation-data"][] | .buckets | length > 0' "$dir/json" >/dev/null ||
      fail "$name: the text has histograms, the JSON no buckets"
    total=$(jq '[.["aggregation-data"][]?.buckets[]?.count] | add // 0' "$dir/json" | awk '{ s += $1 } END { print s + 0 }')
    [ "$total" -gt 0 ] || fail "$name: the JSON's buckets count nothing"
  fi
  if grep -q "matched" "$dir/text.err"; then
    jq -e 'select(.matched) | .matched > 0' "$dir/json.err" >/dev/null || fail "$name: no matched object"
  fi
  if grep -qE 'printf|printa\("' "$script" && [ -s "$dir/text" ]; then
    jq -e '.output[]?.message // .message | strings' "$dir/json" >/dev/null ||
      fail "$name: the text has printf output, the JSON no message"
  fi
  echo "$name: $(grep -c . "$dir/json") JSON lines"
done

finish
