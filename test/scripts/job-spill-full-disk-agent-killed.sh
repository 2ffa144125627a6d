# A job's spill stopped by a full disk keeps saying where it stopped when the
# agent that saw it dies before the job's end is kept: the guardian's record
# holds it, and the next agent, restoring the job from that record after its
# guardian is gone too, reports the spill's end exactly (`spillLost.from`),
# not a spill that merely looks short. Needs root to mount a 1 MiB tmpfs.
. "$SCRIPT_LIB"

if [[ $(id -u) -ne 0 ]]; then
  skip "mounting a 1 MiB tmpfs needs root (running as uid $(id -u))"
fi
[[ "$(corral probe --json | jq -r .guardian.built)" == true ]] || skip "no guardian built here (corral probe): it writes a job's spill"
mkdir small
if ! mount -t tmpfs -o size=1m corral-test-job-full "$SCRIPT_TMP/small" 2>mount.err; then
  skip "cannot mount a tmpfs here: $(cat mount.err)"
fi
trap 'umount "$SCRIPT_TMP/small" 2>/dev/null || umount -l "$SCRIPT_TMP/small" || true' EXIT

corral run --bg --name full --spill small/full.log -- sh -c 'seq 1 400000; exec sleep 300' > /dev/null
spill_stop() { corral jobs --json | jq -r '.jobs[] | select(.name == "full") | .spillLost.from // empty'; }
wait_until 60 test -n "$(spill_stop)"
from=$(spill_stop)
assert_eq "$from" "$(stat -c %s small/full.log)" "where the spill stopped: the file's end"

agent=$(corral agent status --json | jq .pid)
child=$(corral jobs --json | jq '.jobs[] | select(.name == "full") | .pid')
guardian=$(awk '{print $4}' "/proc/$child/stat")
record="$CORRAL_STATE_DIR/guardians/$guardian.json"
assert_eq "$(jq -c '[.spillStopped.from, .spillStopped.code]' "$record")" "[$from,\"ENOSPC\"]" "the guardian's record"

# The agent dies between the job's exit and its guardian's sweep (as
# job-end-survives-agent-kill.sh recreates it): the exit in the record, then
# the agent and the guardian gone.
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
jq -c '. + {exited: {code: 0, signal: null, core: false, durationMs: 10}}' "$record" > record.new
mv record.new "$record"
kill -KILL "$guardian"
job=$(corral jobs --json | jq -c '.jobs[] | select(.name == "full")')
assert_eq "$(jq -r '.state + " " + (.status|tostring)' <<<"$job")" "done 0" "the job restored as it ended"
assert_eq "$(jq -r '.spillLost.from' <<<"$job")" "$from" "the restored job says where its spill stopped"
assert_contains "$(jq -r '.spillLost.error' <<<"$job")" "no space left on the device"
wait_until 30 sh -c "! kill -0 $child 2>/dev/null"
corral reap > /dev/null
corral agent stop > /dev/null
