# A job's end outlives the agent that saw it: the job ends, the agent is
# SIGKILLed before anyone reaped the job, and the next command's agent still
# shows the job as it ended (status, bytes, output from its spill); `jobs
# wait` gives its status; `reap` forgets it for good.
. "$SCRIPT_LIB"

corral run --bg --name ended --spill "$SCRIPT_TMP/ended.log" -- sh -c 'seq 1 100000; exit 3' >/dev/null
set +e
corral jobs wait ended >/dev/null 2>&1
status=$?
set -e
assert_eq "$status" 3 "the job ended with its status"
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

job=$(corral jobs --json | jq -c '.jobs[] | select(.name == "ended")')
assert_eq "$(jq -r '.state + " " + (.status|tostring) + " " + (.bytes|tostring)' <<<"$job")" "done 3 $(seq 1 100000 | wc -c)" "the ended job is shown as it ended"
assert_eq "$(corral collect --job ended --from 0 | head -2 | tr '\n' ' ')" "1 2 " "its output, read back from the spill"
set +e
corral jobs wait ended >/dev/null 2>&1
status=$?
set -e
assert_eq "$status" 3 "jobs wait gives its status"
assert_contains "$(corral reap)" "%1  exit 3"
assert_eq "$(corral jobs --json | jq '.jobs | length')" 0 "reaped: forgotten"
corral agent stop >/dev/null

# The agent dies between the job's exit and its guardian's sweep: the guardian
# has reported the exit (written in its record) and exits. Recreated here:
# the record gets the exit the guardian reported, then both the agent and
# the guardian die. The next agent shows the job as it ended, and ends
# what is left of its tree.
if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip_part "the exit written in a guardian's record: no guardian built here (corral probe)"
else
  corral run --bg --name swept -- sleep 300 >/dev/null
  agent=$(corral agent status --json | jq .pid)
  child=$(corral jobs --json | jq '.jobs[] | select(.name == "swept") | .pid')
  guardian=$(awk '{print $4}' "/proc/$child/stat")
  kill -KILL "$agent"
  wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
  record="$CORRAL_STATE_DIR/guardians/$guardian.json"
  jq -c '. + {exited: {code: 4, signal: null, core: false, durationMs: 10}}' "$record" > record.new
  mv record.new "$record"
  kill -KILL "$guardian"
  job=$(corral jobs --json | jq -c '.jobs[] | select(.name == "swept")')
  assert_eq "$(jq -r '.state + " " + (.status|tostring)' <<<"$job")" "done 4" "the exit its guardian reported"
  wait_until 30 sh -c "! kill -0 $child 2>/dev/null"
  corral reap >/dev/null
  corral agent stop >/dev/null
fi
