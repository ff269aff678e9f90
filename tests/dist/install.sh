#!/usr/bin/env bash
# Usage: install.sh BUILD_DIR SOURCE_DIR
# Installs the build into a temporary DESTDIR and checks what a user gets there.
set -u
build=$1
src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
source "$(dirname "$0")/../cli/checks.sh"

DESTDIR=$dest cmake --install "$build" --prefix /usr/local >"$dest/install.log" 2>&1 ||
  { cat "$dest/install.log"; fail "cmake --install with DESTDIR"; }
root=$dest/usr/local
bin=$root/bin/dsched

# The binary: stripped, runs, and its debug info is beside it where gdb looks.
[ -x "$bin" ] || fail "no $bin"
file_info=$(readelf -S "$bin" 2>/dev/null)
grep -q '\.symtab' <<<"$file_info" && fail "installed binary still has a symbol table"
grep -q '\.debug_info' <<<"$file_info" && fail "installed binary still has debug info"
grep -q '\.gnu_debuglink' <<<"$file_info" || fail "installed binary has no .gnu_debuglink"
[ -s "$root/bin/.debug/dsched.debug" ] || fail "no debug file bin/.debug/dsched.debug"
"$bin" --version | grep -q '^dsched ' || fail "installed binary does not run"
built_size=$(stat -c %s "$build/runtime/dsched")
installed_size=$(stat -c %s "$bin")
echo "binary: built $built_size bytes, installed $installed_size bytes"
[ $((installed_size * 2)) -le "$built_size" ] || fail "installed binary is more than half the built one"

# The manual: renders without a warning, and documents every flag, option and probe.
man=$root/share/man/man1/dsched.1
[ -f "$man" ] || fail "no $man"
warnings=$(groff -man -ww -z "$man" 2>&1)
[ -z "$warnings" ] || fail "groff warnings: $warnings"
text=$(MANWIDTH=200 man -l "$man" 2>/dev/null | col -b)
[ -n "$text" ] || fail "man -l renders nothing"
for flag in $(sed -n 's/^\t\(-[A-Za-z]\)  .*/\1/p' <("$bin" -h)); do
  grep -qE -- "(^|[[ ])$flag([] ]|$)" <<<"$text" || fail "man page lacks the flag $flag"
done
# Options are looked up in the source: the rendered page may hyphenate a long name.
for option in $(awk '/^    \{"/ { gsub(/[{",]/, "", $1); print $1 }' "$src/abi/options.cc"); do
  grep -qw -- "$option" "$man" || fail "man page lacks the option $option"
done
# rawtp's names are the kernel's tracepoints: the page describes them as such, not one by one.
for probe in $("$bin" -l | awk 'NR > 1 && $2 != "rawtp" { print $NF }' | sort -u); do
  grep -qF -- "$probe" <<<"$text" || fail "man page lacks the probe $probe"
done
grep -q 'EXIT STATUS' <<<"$text" || fail "man page has no EXIT STATUS"
grep -q 'dsched ctprof compare' <<<"$text" || fail "man page does not describe ctprof"

# The completion: loads in bash and completes flags, -x options, probes and script files.
completion=$root/share/bash-completion/completions/dsched
complete_words() {  # complete_words WORD...: what the completion offers for the last word
  PATH="$root/bin:$PATH" bash -c '
    source "$1"; shift
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _dsched; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}
[ -f "$completion" ] || fail "no $completion"
bash -c "source '$completion' && complete -p dsched" >/dev/null 2>&1 || fail "completion does not load"
[ "$(complete_words dsched -x switchr)" = "switchrate=" ] || fail "-x switchr does not complete to switchrate="
complete_words dsched -x agg | grep -qx aggsortrev || fail "-x agg does not offer aggsortrev"
complete_words dsched -x aggpa | grep -q . && fail "-x aggpa offers a refused option"
complete_words dsched -x aggz | grep -q "^aggzoom" || fail "-x aggz does not offer aggzoom"
complete_words dsched -P sch | grep -qx sched || fail "-P sch does not complete to sched"
# bash splits "sched:::on" at the colons: the reply is what follows the last one.
complete_words dsched -n sched:::on | grep -qx 'on-cpu' || fail "-n sched:::on does not complete on-cpu"
complete_words dsched -n sched:vm | grep -qx 'vmlinux::on-cpu' || fail "-n sched:vm does not complete"
offered=$(complete_words dsched -)
for flag in $(sed -n 's/^\t\(-[A-Za-z]\)  .*/\1/p' <("$bin" -h)); do
  grep -qx -- "$flag" <<<"$offered" || fail "completion does not offer the flag $flag"
done
(cd "$src/examples" && complete_words dsched -s qt) | grep -qx qtime.d || fail "-s qt does not complete qtime.d"

# The examples: executable, byte for byte the sources after a #! line, and one runs as ./NAME.d.
examples=$root/share/dsched/examples
for source in "$src"/examples/*.d; do
  installed=$examples/$(basename "$source")
  [ -x "$installed" ] || { fail "$installed is not an executable file"; continue; }
  [ "$(head -c 2 "$installed")" = "#!" ] || fail "$installed has no #! line"
  if [ "$(head -c 2 "$source")" = "#!" ]; then
    cmp -s "$source" "$installed" || fail "$installed differs from its source"
  else
    cmp -s "$source" <(tail -n +2 "$installed") || fail "$installed differs from its source after #!"
  fi
done
if [ "$(id -u)" -eq 0 ]; then
  out=$(cd "$examples" && PATH="$root/bin:$PATH" timeout --preserve-status -s INT 2 ./where.d 2>&1)
  status=$?
  grep -q "script './where.d' matched" <<<"$out" || fail "./where.d did not start: $out"
  grep -q 'value  ------------- Distribution' <<<"$out" || fail "./where.d printed no histogram: $out"
  [ "$status" -eq 0 ] || fail "./where.d exited $status after SIGINT"
else
  echo "not root: the installed example is not run"
fi

finish
