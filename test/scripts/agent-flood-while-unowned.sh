# The agent is SIGKILLed and two jobs then flood their output: their
# guardians keep reading (the programs never block) and keep the last 1 MiB
# each. The job that asked for a spill loses nothing (its guardian writes
# the spill itself): no gap, the spill whole, every offset readable. The job
# without a spill has its loss reported exactly (issue 11): the new agent
# names the missing bytes; the offsets after the gap are exact.
. "$SCRIPT_LIB"

# The jobs wait on a FIFO this script opens when it is time (no sleep loop in the jobs).
mkfifo go
job='echo start; read _ < go; head -c 8388608 /dev/zero | tr "\0" x; echo; echo end'
corral run --bg --name flood --spill "$SCRIPT_TMP/flood.spill" -- sh -c "$job" >/dev/null
corral run --bg --name bare -- sh -c "$job" >/dev/null
job_bytes() { corral jobs --json | jq -c '[.jobs[].bytes]'; }
wait_until 30 output_is "[6,6]" job_bytes
pids=$(corral jobs --json | jq -r '.jobs[].pid')
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
# One line for each job, left in the FIFO held open here: a job that opens it
# late still finds its line (two opens and closes raced: a job that opened
# after the first close waited for a writer that never came).
exec 3<>go
printf '\n\n' >&3
# 8 MiB with nobody reading the guardians: the programs finish only if they never block.
for pid in $pids; do wait_until 120 sh -c "! kill -0 $pid 2>/dev/null"; done
exec 3>&-

total=$((6 + 8388608 + 1 + 4))
tail_kept=1048576
jobs=$(corral jobs --json)
flood=$(jq -c '.jobs[] | select(.name == "flood")' <<<"$jobs")
bare=$(jq -c '.jobs[] | select(.name == "bare")' <<<"$jobs")
assert_eq "$(jq -r '.state + " " + (.status|tostring) + " " + (.bytes|tostring)' <<<"$flood")" "done 0 $total"
assert_eq "$(jq -c '.gap' <<<"$flood")" "null" "a spilled job loses nothing"
assert_eq "$(stat -c %s flood.spill)" "$total" "the spill is whole"
assert_eq "$( (echo start; head -c 8388608 /dev/zero | tr '\0' x; echo; echo end) | sha256sum)" "$(sha256sum < flood.spill)" "byte-identical"
assert_eq "$(corral collect --job flood --from 0 | head -c 5)" "start" "offsets below the agent's memory come from the spill"

assert_eq "$(jq -r '.state + " " + (.status|tostring) + " " + (.bytes|tostring)' <<<"$bare")" "done 0 $total"
assert_eq "$(jq -c '.gap' <<<"$bare")" "{\"from\":0,\"to\":$((total - tail_kept)),\"bytes\":$((total - tail_kept))}" "the gap, exactly"
# Past the gap the offsets are exact: the last bytes are the stream's.
assert_eq "$(corral collect --job bare --from $((total - 4)))" "end"
assert_eq "$(corral collect --job bare --from $((total - tail_kept)) | head -c 3)" "xxx"

corral reap --all >/dev/null
corral agent stop >/dev/null
