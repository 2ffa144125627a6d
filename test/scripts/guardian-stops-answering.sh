# The guardian stops answering (SIGSTOPped here; stuck or spinning alike)
# while corral needs it to end the tree after a timeout: corral waits the
# grace plus its margin, kills the guardian and takes the lost-supervisor
# path. It returns in bounded time, says so on stderr, and the tree is gone.
. "$SCRIPT_LIB"

if ! corral probe | grep -q '^guardian *in use'; then
  skip "no guardian in use here (corral probe)"
fi

# The child writes its parent (the guardian) and itself, then waits to be timed out.
set +e
timeout -s KILL 60 corral run --timeout 3s --grace 1s -- sh -c 'echo $PPID > guardian.pid; echo $$ > child.pid; sleep 300' 2>run.err &
run=$!
wait_until 30 test -s child.pid
guardian=$(cat guardian.pid)
[[ "$(cat "/proc/$guardian/comm")" == corral-guardia* ]] || fail "the child's parent is not the guardian: $guardian"
kill -STOP "$guardian"
# Should corral never return: the guardian goes on, finds its owner gone and ends the tree (lifeline).
trap 'kill -CONT "$guardian" 2>/dev/null || true' EXIT
wait "$run"
status=$?
set -e
[[ "$status" != 137 ]] || fail "corral did not return within 60 s of a guardian that stopped answering"
assert_contains "$(cat run.err)" "supervisor lost" "the loss is on stderr"
assert_contains "$(cat run.err)" "stopped answering" "stderr says why"
child=$(cat child.pid)
gone() { ! kill -0 "$1" 2>/dev/null || [[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" == Z ]]; }
wait_until 30 gone "$child"
wait_until 30 gone "$guardian"
