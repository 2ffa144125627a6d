# `agent stop` refuses while sessions or jobs run, naming them (exit 1);
# `--keep` stops only the agent (the next command's agent re-adopts what
# runs); `--force` ends them and says which, by id (issue 11).
. "$SCRIPT_LIB"

corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral run --bg --name sleeper -- sleep 300 >/dev/null
session_pid=$(corral pty list --json | jq '.sessions[0].pid')
job_pid=$(corral jobs --json | jq '.jobs[0].pid')
agent=$(corral agent status --json | jq .pid)

set +e
corral agent stop >stop.out 2>stop.err
status=$?
set -e
assert_eq "$status" 1 "refused while something runs"
assert_eq "$(cat stop.err)" "corral: the agent (pid $agent) runs session 1 (sh) and job %1 (sleeper); agent stop --force ends them, --keep leaves them running for the next agent"
kill -0 "$agent" || fail "a refused stop stopped the agent"

assert_eq "$(corral agent stop --keep)" "stopped agent $agent (left running for the next agent: session 1 (sh) and job %1 (sleeper))"
kill -0 "$session_pid" && kill -0 "$job_pid" || fail "--keep ended what ran"
assert_eq "$(corral agent status >/dev/null 2>&1; echo $?)" 1 "no agent runs after --keep"

# The next command's agent takes them over.
assert_contains "$(corral pty list)" "bash --norc --noprofile"
assert_contains "$(corral jobs)" "sleep 300 (sleeper)"

stopped=$(corral agent stop --force)
assert_contains "$stopped" "(ended session 1 (sh) and job %1 (sleeper))"
wait_until 30 sh -c "! kill -0 $session_pid 2>/dev/null && ! kill -0 $job_pid 2>/dev/null"
assert_eq "$(corral agent stop)" "no agent is running on $CORRAL_STATE_DIR/agent.sock"
