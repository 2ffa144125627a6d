# Config `agent: orphan-wait` bounds how long the guardians of the agent's
# sessions and jobs wait for a new agent once theirs is gone (issue 11).
# With `orphan-wait: 2s`, SIGKILLing the agent leaves a session and a
# `run --bg` job whose guardians end their programs and exit by themselves;
# `reap --all` then finds nothing left to end. Without the key, the guardians
# are started with no bound and the next command's agent re-adopts them.
. "$SCRIPT_LIB"

export CORRAL_CONFIG="$SCRIPT_TMP/config.yaml"

# The pid of the guardian recorded for `prog` (the argv's last word, unique here).
guardian_of() { jq -r --arg w "$1" 'select(.argv[-1] == $w) | .guardian.pid' "$CORRAL_STATE_DIR"/guardians/*.json; }
cmdline() { tr '\0' ' ' < "/proc/$1/cmdline"; }
records() { shopt -s nullglob; local r=("$CORRAL_STATE_DIR"/guardians/*.json); echo "${#r[@]}"; }
gone() { local p; for p in "$@"; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
kill_agent() {
  local agent
  agent=$(corral agent status --json | jq .pid)
  kill -KILL "$agent"
  wait_until 30 gone "$agent"
}

# --- With a bound: the guardians give up on their own. ---
printf 'agent:\n  orphan-wait: 2s\n' > "$CORRAL_CONFIG"
assert_eq "$(corral config --json | jq -c .config.agent.orphanWaitMs)" "2000"
assert_contains "$(corral config)" "  orphan-wait: 2s"

corral pty open --name bounded -- sh -c 'echo ready; exec sleep 601' >/dev/null
corral pty wait bounded --text ready >/dev/null
corral run --bg --name bounded-job -- sleep 602 >/dev/null
wait_until 30 output_is 2 records
session_pid=$(corral pty list --json | jq '.sessions[] | select(.name == "bounded") | .pid')
job_pid=$(corral jobs --json | jq '.jobs[] | select(.name == "bounded-job") | .pid')
session_guardian=$(guardian_of 'echo ready; exec sleep 601')
job_guardian=$(guardian_of 602)
for g in "$session_guardian" "$job_guardian"; do
  assert_contains "$(cmdline "$g")" "--adoptable --orphan-wait 2000 " "guardian $g's command line"
done

kill_agent
# Nothing asks for them: past 2s each guardian terminates its program and exits.
wait_until 60 gone "$session_guardian" "$job_guardian" "$session_pid" "$job_pid"

# reap finds only their records: nothing was left to end.
reaped=$(corral reap --all --json)
assert_eq "$(jq -c '[.jobs, .sessions]' <<<"$reaped")" "[[],[]]" "no agent held anything"
assert_eq "$(jq -r '[.orphans[] | .action + " " + .receipt.status] | unique | join(",")' <<<"$reaped")" \
  "its guardian had already exited confirmed"
assert_eq "$(jq '.orphans | length' <<<"$reaped")" 2
assert_eq "$(records)" 0 "reap removed the records"

# --- Without the key: no bound, the next agent re-adopts. ---
printf 'agent:\n  idle-timeout: 5m\n' > "$CORRAL_CONFIG"
assert_eq "$(corral config --json | jq -c .config.agent.orphanWaitMs)" '"off"'
assert_contains "$(corral config)" "  orphan-wait: off"

corral pty open --name unbounded -- sh -c 'echo ready; exec sleep 603' >/dev/null
corral pty wait unbounded --text ready >/dev/null
corral run --bg --name unbounded-job -- sleep 604 >/dev/null
wait_until 30 output_is 2 records
session_pid=$(corral pty list --json | jq '.sessions[] | select(.name == "unbounded") | .pid')
for g in "$(guardian_of 'echo ready; exec sleep 603')" "$(guardian_of 604)"; do
  line=$(cmdline "$g")
  assert_contains "$line" "--adoptable " "guardian $g's command line"
  [[ "$line" != *--orphan-wait* ]] || fail "guardian $g was given a bound: $line"
done

kill_agent
# The next command's agent takes both over.
listed=$(corral pty list --json)
assert_eq "$(jq -c '[.sessions[] | {name, pid, alive}]' <<<"$listed")" "[{\"name\":\"unbounded\",\"pid\":$session_pid,\"alive\":true}]"
assert_eq "$(corral jobs --json | jq -r '.jobs[] | .name + " " + .state')" "unbounded-job running"
corral pty send unbounded --key C-c >/dev/null
corral pty wait unbounded --exit >/dev/null

corral reap --all >/dev/null
corral agent stop >/dev/null
assert_eq "$(records)" 0 "no record outlives what it names"
