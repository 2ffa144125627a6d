# After the agent was SIGKILLed, `corral jobs` says that what it left awaits
# `corral reap` instead of printing nothing (issue 15, item 9); reap ends it.
. "$SCRIPT_LIB"

corral run --bg --name sleeper -- sleep 300 >/dev/null
agent=$(corral agent status --json | sed 's/.*"pid":\([0-9]*\).*/\1/')
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

set +e
out=$(corral jobs 2>"$SCRIPT_TMP/jobs.err")
status=$?
set -e
assert_eq "$status" 0 "jobs with no agent exits 0"
assert_eq "$out" "" "no job table without an agent"
err=$(cat "$SCRIPT_TMP/jobs.err")
assert_contains "$err" "no agent is running; 1 job (%1) of an agent that died (pid $agent)"
assert_contains "$err" "corral reap"

reaped=$(corral reap)
assert_contains "$reaped" "orphan of agent $agent (job %1)"
corral jobs 2>"$SCRIPT_TMP/jobs.err" >/dev/null
assert_eq "$(cat "$SCRIPT_TMP/jobs.err")" "" "nothing left to name once reaped"
