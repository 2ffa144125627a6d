# Two small ones, as a user meets them. A state dir too long for the sockets
# corral makes in it (a Unix socket path fits in 107 bytes): every command
# says so at once, with the limit, and creates nothing (no socket cut short
# in a parent dir, no state dir). `pty attach` with no terminal on stdin
# says it needs one (status 2) instead of detaching at once.
. "$SCRIPT_LIB"

# expect STATUS CMD...: runs CMD, checks its status and that it said one line, left in $err.
expect() {
  local want=$1
  shift
  set +e
  "$@" >/dev/null 2>"$SCRIPT_TMP/err" </dev/null
  local status=$?
  set -e
  err=$(cat "$SCRIPT_TMP/err")
  assert_eq "$status" "$want" "status of: $* (said: $err)"
  assert_eq "$(wc -l <"$SCRIPT_TMP/err")" 1 "one line from: $* (got: $err)"
}

parent="$SCRIPT_TMP/$(printf 'long%.0s' $(seq 1 25))"
mkdir -m 700 "$parent"
for cmd in "pty open -- cat" "run --bg -- true" "jobs" "pty list" "agent status"; do
  # shellcheck disable=SC2086
  CORRAL_STATE_DIR="$parent/state" expect 125 corral $cmd
  assert_contains "$err" "may be at most 72"
  assert_contains "$err" "CORRAL_STATE_DIR"
done
# The socket path itself too long (CORRAL_SOCKET names it).
CORRAL_SOCKET="/tmp/$(printf 's%.0s' $(seq 1 110)).sock" expect 125 corral pty list
assert_contains "$err" "may be at most 107 bytes"
assert_eq "$(ls -A "$parent")" "" "nothing was created in $parent"
assert_eq "$(find "$SCRIPT_TMP" -type s | wc -l)" 0 "no socket anywhere under the scratch dir"

# A state dir of exactly the longest length works (under /tmp: $TMPDIR may be long).
short=$(mktemp -d /tmp/crl.XXXXXX)
trap 'rm -rf "$short"' EXIT
dir72="$short/$(printf 'x%.0s' $(seq 1 $((72 - ${#short} - 1))))"
assert_eq "${#dir72}" 72
CORRAL_STATE_DIR="$dir72" corral run --bg --name fits -- true >/dev/null
CORRAL_STATE_DIR="$dir72" corral agent stop --force >/dev/null
CORRAL_STATE_DIR="${dir72}y" expect 125 corral jobs
assert_contains "$err" "is 73 bytes long"

# attach needs a terminal; nothing is started for it.
corral pty open --name cat -- cat >/dev/null
expect 2 corral pty attach cat
assert_contains "$err" "needs a terminal"
corral pty close cat >/dev/null
