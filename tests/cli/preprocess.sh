#!/usr/bin/env bash
# Usage: preprocess.sh DSCHED
# -C: errors name the original file and line (cpp's line markers), in the script and in a header
# it includes; -H lists included files; -X s leaves __STDC__ undefined; -L loads a library.
set -u
dsched=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
source "$(dirname "$0")/checks.sh"

mkdir "$dir/inc" "$dir/lib"
printf '/* a header */\n#define LIMIT 5\n\n\ninline int broken = nosuch_in_header;\n' >"$dir/inc/defs.h"
printf '/*\n * comment lines\n */\n#define A 1\n\n#define B 2\n\nBEGIN\n{\n  x = nosuch_variable;\n}\n' >"$dir/err.d"
printf '#include "defs.h"\nBEGIN { exit(0); }\n' >"$dir/hdr.d"

err=$("$dsched" -e -C -s "$dir/err.d" 2>&1)
grep -q "failed to compile script $dir/err.d: line 10: " <<<"$err" || fail "-C script error: $err"
grep -q -- "--> $dir/err.d:10:" <<<"$err" || fail "-C script error location: $err"
err=$("$dsched" -e -C -I "$dir/inc" -s "$dir/hdr.d" 2>&1)
grep -q -- "--> $dir/inc/defs.h:5:" <<<"$err" || fail "-C header error location: $err"
# Without -C the lines are the file's own too.
grep -v '^#define' "$dir/err.d" >"$dir/plain.d"
err=$("$dsched" -e -s "$dir/plain.d" 2>&1)
grep -q "line 8: " <<<"$err" || fail "error without -C: $err"

# -H: cpp names the header it includes.
printf '#define LIMIT 5\n' >"$dir/inc/defs.h"
err=$("$dsched" -e -C -H -I "$dir/inc" -s "$dir/hdr.d" 2>&1) || fail "-H exited $?: $err"
grep -q "inc/defs.h" <<<"$err" || fail "-H did not list defs.h: $err"

# -X: __STDC__ defined with a, undefined with s.
printf '#ifdef __STDC__\nBEGIN { exit(0); }\n#else\nBEGIN { nosuch_stdc; }\n#endif\n' >"$dir/stdc.d"
"$dsched" -e -C -X a -s "$dir/stdc.d" >/dev/null 2>&1 || fail "-X a: __STDC__ undefined"
"$dsched" -e -C -X s -s "$dir/stdc.d" >/dev/null 2>&1 && fail "-X s: __STDC__ defined"

# -L: a library's inline is visible to the script; errors in it name the library file.
printf 'inline int lib_limit = 7;\n' >"$dir/lib/limits.d"
printf 'BEGIN { x = lib_limit; exit(0); }\n' >"$dir/uselib.d"
"$dsched" -e -L "$dir/lib" -s "$dir/uselib.d" >/dev/null 2>&1 || fail "-L: library not loaded"
"$dsched" -e -s "$dir/uselib.d" >/dev/null 2>&1 && fail "without -L the inline is known"
printf 'inline int bad = nosuch_lib;\n' >"$dir/lib/zbad.d"
err=$("$dsched" -e -L "$dir/lib" -s "$dir/uselib.d" 2>&1)
grep -q -- "--> $dir/lib/zbad.d:1:" <<<"$err" || fail "-L error location: $err"
err=$("$dsched" -e -L "$dir/missing" -s "$dir/uselib.d" 2>&1)
[ $? -eq 1 ] && grep -q "failed to open library directory $dir/missing" <<<"$err" || fail "-L missing dir: $err"

# A #! line's flags apply (-C, -q) and the line is removed before cpp; a flag a script cannot set
# there is refused, naming the script.
printf '#!/usr/sbin/dtrace -Cqs\n#define N 3\nBEGIN { printf("%%d\\n", N); exit(0); }\n' >"$dir/bang.d"
err=$("$dsched" -e -s "$dir/bang.d" 2>&1) || fail "#! -Cqs exited $?: $err"
printf '#!/usr/bin/env -S dsched -x quiet -C -s\n#if 1\nBEGIN { exit(0); }\n#endif\n' >"$dir/envbang.d"
err=$("$dsched" -e -s "$dir/envbang.d" 2>&1) || fail "#! env -S dsched exited $?: $err"
printf '#!/usr/sbin/dtrace -qcs\nBEGIN { exit(0); }\n' >"$dir/badbang.d"
err=$("$dsched" -e -s "$dir/badbang.d" 2>&1)
[ $? -eq 1 ] && grep -q "failed to compile script $dir/badbang.d: line 1: #! line: -c cannot be given on it" <<<"$err" ||
  fail "#! -c: $err"

finish
