#!/bin/bash
# Usage: check.sh DSCHED [--update]
# Compiles every script here and every example under examples/ with `dsched -e` and compares each
# stage's dump with its golden file in golden/:
#   NAME.ast    the parse tree (--dump=ast)
#   NAME.types  the typed program (--dump=types)
#   NAME.ir     the LLVM IR as optimised for BPF (-S), without debug metadata
# --update rewrites the golden files instead; review their diff like code.
# The typed program and the IR hold the running kernel's struct offsets: they are compared only on
# the kernel the goldens were made on (golden/KERNEL names its BTF); elsewhere the test is skipped
# (exit 77) and says how to make goldens for this kernel.
set -u
dsched=$1
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
golden=$here/golden
kernel_id=$(sha256sum /sys/kernel/btf/vmlinux | cut -c1-16)
failures=0
checked=0

# The IR without the debug metadata that names maps for libbpf (numbered, and noise in a diff).
strip_metadata() { grep -v '^!' | sed -E 's/, !dbg ![0-9]+//g; s/ !dbg ![0-9]+//g'; }

dump() {  # dump STAGE SCRIPT ARGS...
  local stage=$1 script=$2
  shift 2
  case $stage in
    ast) "$dsched" -e --dump=ast -s "$script" "$@" ;;
    types) "$dsched" -e --dump=types -s "$script" "$@" ;;
    ir) "$dsched" -e -S -s "$script" "$@" | strip_metadata ;;
  esac
}

same_kernel=1
if [ "$update" = --update ]; then
  echo "$kernel_id" >"$golden/KERNEL"
elif [ "$(cat "$golden/KERNEL" 2>/dev/null)" != "$kernel_id" ]; then
  same_kernel=0
fi

for script in "$here"/*.d "$root"/examples/*.d; do
  name=$(basename "$script" .d)
  args=()
  [ "$name" = whererun ] && args=(sshd)
  for stage in ast types ir; do
    [ "$stage" != ast ] && [ "$same_kernel" = 0 ] && continue
    expected=$golden/$name.$stage
    actual=$(dump "$stage" "$script" "${args[@]}" 2>&1)
    if [ "$update" = --update ]; then
      printf '%s\n' "$actual" >"$expected"
      continue
    fi
    checked=$((checked + 1))
    if ! diff -u "$expected" <(printf '%s\n' "$actual") >/tmp/codegen-diff.$$; then
      failures=$((failures + 1))
      echo "FAIL: $name.$stage differs from its golden file:"
      head -40 /tmp/codegen-diff.$$
    fi
  done
done
rm -f /tmp/codegen-diff.$$
[ "$update" = --update ] && { echo "golden files rewritten in $golden"; exit 0; }
echo "$checked dumps checked, $failures differ"
[ "$failures" -eq 0 ] || exit 1
if [ "$same_kernel" = 0 ]; then
  echo "typed and IR dumps skipped: golden/KERNEL is another kernel's BTF; make goldens for this one with"
  echo "  bash tests/codegen/check.sh build/runtime/dsched --update   (then review the diff)"
  exit 77
fi
