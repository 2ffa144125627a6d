# `corral reap` retires what has finished and nothing else: a job and a
# terminal session still running stay, untouched, whichever door answers
# (the installed `corral` is the native client, whose `reap` the agent runs
# itself; before, that agent took its own guardians for a dead agent's and
# terminated every running job and session). `reap --all` then ends them.
. "$SCRIPT_LIB"

corral agent start >/dev/null
corral run --bg --name finished -- true >/dev/null
corral run --bg --name working -- sleep 600 >/dev/null
corral pty open --name shell -- sleep 600 >/dev/null
wait_until 30 output_is done sh -c "corral jobs --json | jq -r '.jobs[] | select(.name == \"finished\") | .state'"
working_pid=$(corral jobs --json | jq -r '.jobs[] | select(.name == "working") | .pid')

reaped=$(corral reap --json)
assert_eq "$(jq -c '[.jobs[].name]' <<<"$reaped")" '["finished"]' "reap retires the finished job only"
assert_eq "$(jq -c '.sessions' <<<"$reaped")" '[]' "no session is reaped"
assert_eq "$(jq -c '.orphans' <<<"$reaped")" '[]' "the agent's own guardians are not orphans"
assert_eq "$(corral jobs --json | jq -r '.jobs[] | select(.name == "working") | .state')" running "the running job still runs"
kill -0 "$working_pid" || fail "the running job's process is gone"
assert_eq "$(corral pty list --json | jq -r '.sessions[] | select(.name == "shell") | .alive')" true "the session still runs"

# The same through the JavaScript CLI.
assert_eq "$(CORRAL_CLIENT=js corral reap)" "nothing to reap" "the JavaScript CLI's reap finds nothing either"
assert_eq "$(corral jobs --json | jq -r '.jobs[] | select(.name == "working") | .state')" running "still running after the JavaScript CLI's reap"

all=$(corral reap --all --grace 1s --json)
assert_eq "$(jq -c '[.jobs[] | [.name, .terminated]]' <<<"$all")" '[["working",true]]' "reap --all terminates the running job"
assert_eq "$(jq -c '[.sessions[] | [.name, .terminated]]' <<<"$all")" '[["shell",true]]' "and the session"
wait_until 30 sh -c "! kill -0 $working_pid 2>/dev/null"
corral agent stop >/dev/null
