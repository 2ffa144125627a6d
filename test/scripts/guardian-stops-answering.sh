# The guardian stops answering (SIGSTOPped here; stuck or spinning alike)
# while corral needs it to end the tree after a timeout: corral waits the
# grace plus its margin, kills the guardian and takes the lost-supervisor
# path. It returns in bounded time, says so on stderr, and the tree is gone.
. "$SCRIPT_LIB"

if ! corral probe | grep -q '^guardian *in use'; then
  skip "no guardian in use here (corral probe)"
fi

gone() { ! kill -0 "$1" 2>/dev/null || [[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" == Z ]]; }

# The child writes its parent (the guardian) and itself, then waits to be timed out.
corral run --timeout 3s --grace 1s -- sh -c 'echo $PPID > guardian.pid; echo $$ > child.pid; sleep 300' 2>run.err &
run=$!
wait_until 30 test -s child.pid
guardian=$(cat guardian.pid)
[[ "$(cat "/proc/$guardian/comm")" == corral-guardia* ]] || fail "the child's parent is not the guardian: $guardian"
kill -STOP "$guardian"
# Should corral not return, corral alone is killed and the guardian resumed:
# it finds its owner gone and ends the tree (its lifeline), so a failure
# leaves nothing behind.
trap 'gone "$run" || kill -KILL "$run"; kill -CONT "$guardian" 2>/dev/null || true' EXIT
wait_until 60 gone "$run"
set +e
wait "$run"
set -e
assert_contains "$(cat run.err)" "supervisor lost" "the loss is on stderr"
assert_contains "$(cat run.err)" "stopped answering" "stderr says why"
wait_until 30 gone "$(cat child.pid)"
wait_until 30 gone "$guardian"
