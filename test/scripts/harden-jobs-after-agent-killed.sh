# After the agent was SIGKILLed nothing it held is hidden (issue 15, item 9),
# and nothing is lost (issue 11): the next `corral jobs` starts a new agent
# that re-adopts the job from its guardian. When the guardian died too, the
# job is reported lost, with why, and `corral reap` ends what is left of it.
. "$SCRIPT_LIB"

corral run --bg --name sleeper -- sleep 300 >/dev/null
agent=$(corral agent status --json | sed 's/.*"pid":\([0-9]*\).*/\1/')
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

out=$(corral jobs 2>"$SCRIPT_TMP/jobs.err")
assert_contains "$out" "sleep 300 (sleeper)" "the job is re-adopted"
assert_contains "$out" "running"
assert_eq "$(cat "$SCRIPT_TMP/jobs.err")" "" "nothing lost"

# The second agent and everything in its process group (the guardian of the job it started) die at once.
corral run --bg --name doomed -- sleep 300 >/dev/null
second=$(corral agent status --json | sed 's/.*"pid":\([0-9]*\).*/\1/')
doomed=$(corral jobs --json | jq '.jobs[] | select(.name == "doomed") | .pid')
kill -KILL -- "-$second"
wait_until 30 sh -c "! kill -0 $second 2>/dev/null"

out=$(corral jobs 2>"$SCRIPT_TMP/jobs.err")
assert_contains "$out" "(sleeper)" "the first job's guardian outlived both agents"
[[ "$out" != *doomed* ]] || fail "a job whose guardian is gone cannot be listed as held: $out"
assert_contains "$(cat "$SCRIPT_TMP/jobs.err")" "corral: lost job %2 (doomed): its guardian (pid "
assert_contains "$(cat "$SCRIPT_TMP/jobs.err")" "is gone; corral reap ends what is left of it"
kill -0 "$doomed" || fail "the job's program outlived its guardian (the test needs it to)"

reaped=$(corral reap)
assert_contains "$reaped" "orphan of agent $second (job %2)"
assert_contains "$reaped" "not re-adopted (its guardian (pid "
wait_until 30 sh -c "! kill -0 $doomed 2>/dev/null"
corral jobs 2>"$SCRIPT_TMP/jobs.err" >/dev/null
assert_eq "$(cat "$SCRIPT_TMP/jobs.err")" "" "nothing left to name once reaped"
corral reap --all >/dev/null
