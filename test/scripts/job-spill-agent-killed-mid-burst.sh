# A job asked to spill keeps every byte whoever dies: the agent is SIGKILLed
# in the middle of the job's burst (between its two halves, each released
# by a gate this script holds), the second half (more than the guardian's
# 1 MiB orphan tail) is written while no agent owns the job, and a new agent
# re-adopts it. The spill is byte-identical to what the program wrote, and
# no gap is reported: the guardian writes the spill itself.
. "$SCRIPT_LIB"

if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip "no guardian built here (corral probe): a job's spill is the agent's to write without one"
fi

mkfifo gate1 gate2
spill="$SCRIPT_TMP/out.log"
corral run --bg --name burst --spill "$spill" -- sh -c "read x < '$SCRIPT_TMP/gate1'; seq 1 100000; read x < '$SCRIPT_TMP/gate2'; seq 100001 600000; exec sleep 300" >/dev/null
echo go > gate1
first=$(seq 1 100000 | wc -c)
wait_until 60 output_is "$first" sh -c "corral jobs --json | jq '.jobs[0].bytes'"

agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
echo go > gate2 # the burst's second half, with no agent to own the job

total=$(seq 1 600000 | wc -c)
wait_until 120 output_is "$total" sh -c "corral jobs --json 2>/dev/null | jq '.jobs[0].bytes'"
info=$(corral jobs --json)
assert_eq "$(jq -r '.jobs[0].spill' <<<"$info")" "$spill" "the re-adopted job still names its spill"
assert_eq "$(jq -r '.jobs[0].gap // "none"' <<<"$info")" "none" "no gap: nothing was lost"
wait_until 60 output_is "$total" sh -c "wc -c < '$spill'"
assert_eq "$(sha256sum < "$spill")" "$(seq 1 600000 | sha256sum)" "the spill is byte-identical"

corral reap --all >/dev/null
