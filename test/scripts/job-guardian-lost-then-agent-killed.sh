# A job whose guardian is SIGKILLed, and whose agent is SIGKILLed while it
# ends what the lost guardian left (the program ignores SIGTERM, so that
# takes the grace): the next agent still knows the job. It is reported
# lost with the reason by `corral jobs` (or listed as ended, its end unknown
# with the loss); it never vanishes without a word, and `reap --all` leaves
# nothing of it running.
. "$SCRIPT_LIB"

if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip "jobs outlive their agent only with the guardian: none built here (corral probe)"
fi
gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}

corral run --bg --name deaf --grace 20s -- sh -c 'trap "" TERM; echo $$ > main.pid; exec sleep 300' >/dev/null
wait_until 60 test -s main.pid
main=$(cat main.pid)
agent=$(corral agent status --json | jq .pid)
guardian=$(awk '{print $4}' "/proc/$main/stat")
kill -KILL "$guardian"
# The agent has reaped its guardian: it is now ending the tree itself, for up to the grace.
wait_until 60 gone "$guardian"
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

listed=$(corral jobs --json 2> jobs.err | jq -c '.jobs[] | select(.name == "deaf")')
if [[ -n "$listed" ]]; then
  assert_eq "$(jq -r '[.exit.code, .exit.signal, (.exit.supervisorLost != null)] | map(tostring) | join(" ")' <<<"$listed")" "null null true" "listed with its end unknown, with the loss"
else
  assert_contains "$(cat jobs.err)" "lost job %1 (deaf): " "reported lost, with the reason"
fi
corral reap --all >/dev/null || true
wait_until 60 gone "$main"
corral agent stop --force >/dev/null 2>&1 || true
