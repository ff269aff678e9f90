#!/bin/sh
# Builds and runs dsched's benchmarks, printing their tables (see docs/performance.md).
#   bench/run.sh [startup] [overhead] [frontend] [ctprof] [syscall] [uprobe] [timeline] [symbols] [scaling]
#                default: all nine
# Environment: BENCH_BUILD_DIR (default build-bench next to bench/), STARTUP_ARGS (e.g. "--runs 20"),
# OVERHEAD_ARGS (e.g. "--runs 5 --loops 200000 --cpu 0"), SYSCALL_ARGS (e.g. "--runs 5 --calls 1000000"),
# UPROBE_ARGS (e.g. "--runs 5 --calls 1000000"),
# TIMELINE_ARGS (e.g. "--runs 9"), SCALING_ARGS (e.g. "--runs 5 --svg docs/scaling.svg").
# Needs root (BPF, perf events).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BENCH_BUILD_DIR:-$root/build-bench}
benches=${*:-startup overhead frontend ctprof syscall uprobe timeline symbols scaling}

targets=""
for b in $benches; do
  case $b in
    startup|overhead|frontend|ctprof|syscall|uprobe|timeline|symbols) targets="$targets ${b}_bench" ;;
    scaling) targets="$targets dsched" ;;
    *) echo "run.sh: unknown benchmark '$b' (startup, overhead, frontend, ctprof, syscall, uprobe, timeline, symbols, scaling)" >&2; exit 2 ;;
  esac
done
cmake -S "$root" -B "$build" >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j2 --target $targets >/dev/null

# bpftrace attaches classic tracepoints through tracefs, which a fresh machine does not mount:
# mount it in a private mount namespace so the machine's own mounts stay as they were.
export build root benches STARTUP_ARGS="${STARTUP_ARGS:-}" OVERHEAD_ARGS="${OVERHEAD_ARGS:-}" \
  SYSCALL_ARGS="${SYSCALL_ARGS:-}" UPROBE_ARGS="${UPROBE_ARGS:-}" TIMELINE_ARGS="${TIMELINE_ARGS:-}" SCALING_ARGS="${SCALING_ARGS:-}"
exec unshare --mount --propagation private sh -eu -c '
  [ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
  run() { echo "== $*"; "$@"; echo; }
  for b in $benches; do
    case $b in
      startup) run "$build/bench/startup/startup_bench" $STARTUP_ARGS ;;
      overhead) run "$build/bench/overhead/overhead_bench" $OVERHEAD_ARGS ;;
      frontend) run "$build/bench/frontend/frontend_bench" "$root/bench/frontend/script300.d" ;;
      ctprof) run "$build/bench/ctprof/ctprof_bench" ;;
      syscall) run "$build/bench/syscall/syscall_bench" $SYSCALL_ARGS ;;
      uprobe) run "$build/bench/uprobe/uprobe_bench" $UPROBE_ARGS ;;
      timeline) run "$build/bench/timeline/timeline_bench" $TIMELINE_ARGS ;;
      symbols) run "$build/bench/symbols/symbols_bench" ;;
      scaling) run python3 "$root/bench/scaling/scaling.py" "$build/runtime/dsched" $SCALING_ARGS ;;
    esac
  done
'
