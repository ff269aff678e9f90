# Sourced by the command-line test scripts: failures are counted and printed, and the script ends
# with the closing line ctest's log shows and an exit status.
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

# only_as_root REASON: ends the script (passing) when not root, saying why nothing ran.
only_as_root() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "not root: $1"
    exit 0
  fi
}

finish() {
  echo "$((failures == 0 ? 1 : 0)) passed, $((failures > 0 ? 1 : 0)) failed"
  [ "$failures" -eq 0 ]
}
