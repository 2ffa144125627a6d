# A SIGKILLed `run` or `collect` leaves nothing behind in $TMPDIR (issue 15,
# item 9) and its tree ends: corral talks to its guardian over an inherited
# socket pair, so a run makes no socket and no dir at all, and the guardian
# reads the killed corral's end of the pair closing as its owner gone.
. "$SCRIPT_LIB"

# A private, short TMPDIR (a socket path must fit in 108 bytes).
TMPDIR=$(mktemp -d /tmp/crlrun.XXXXXX)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

if ! corral probe --json | grep -Eq '"usable": *true'; then
  skip "no usable guardian here (corral probe)"
fi

for command in run collect; do
  rm -f "$SCRIPT_TMP/child.pid"
  corral "$command" -- sh -c 'echo $$ > "$0"; exec sleep 300' "$SCRIPT_TMP/child.pid" >"$SCRIPT_TMP/$command.out" 2>&1 &
  corral_pid=$!
  started() {
    test -s "$SCRIPT_TMP/child.pid" && return 0
    kill -0 "$corral_pid" 2>/dev/null || fail "corral $command ended early: $(cat "$SCRIPT_TMP/$command.out")"
    return 1
  }
  wait_until 60 started
  child=$(cat "$SCRIPT_TMP/child.pid")
  # While it runs: nothing of corral's in TMPDIR (no socket dir).
  assert_eq "$(find "$TMPDIR" -mindepth 1 | wc -l)" 0 "corral $command made something in $TMPDIR while running"
  kill -KILL "$corral_pid"
  wait "$corral_pid" 2>/dev/null || true
  # The guardian, having lost its owner, ends the tree itself.
  wait_until 60 sh -c "! kill -0 $child 2>/dev/null"
  left=$(find "$TMPDIR" -mindepth 1 | wc -l)
  assert_eq "$left" 0 "corral $command killed with SIGKILL left something in $TMPDIR"
done
