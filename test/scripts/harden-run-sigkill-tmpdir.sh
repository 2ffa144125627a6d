# A SIGKILLed `run` or `collect` leaves no /tmp/corral-run-* dir behind
# (issue 15, item 9): the guardian's socket dir goes as soon as the guardian
# answered, and one left by a corral killed before that (its creator gone)
# is removed by the next run.
. "$SCRIPT_LIB"

# A private, short TMPDIR (a socket path must fit in 108 bytes).
TMPDIR=$(mktemp -d /tmp/crlrun.XXXXXX)
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

if ! corral probe --json | grep -Eq '"usable": *true'; then
  echo "skipped: no usable guardian here (corral probe), so no guardian socket dir is made"
  exit 0
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
  kill -KILL "$corral_pid"
  wait "$corral_pid" 2>/dev/null || true
  # The guardian, having lost its owner, ends the tree itself.
  wait_until 60 sh -c "! kill -0 $child 2>/dev/null"
  corral run -- true
  left=$(find "$TMPDIR" -maxdepth 1 -name 'corral-run-*' | wc -l)
  assert_eq "$left" 0 "corral $command killed with SIGKILL left its guardian socket dir in $TMPDIR"
done

# A dir left by a corral that is gone (simulated: a pid that has exited) is swept by the next run.
dead=$(sh -c 'echo $$')
mkdir -m 700 "$TMPDIR/corral-run-$dead-AbC123"
touch "$TMPDIR/corral-run-$dead-AbC123/guardian-$dead-000000.sock"
corral run -- true
[[ ! -e "$TMPDIR/corral-run-$dead-AbC123" ]] || fail "the stale dir of a gone corral was not removed"
