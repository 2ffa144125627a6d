# The agent is SIGKILLed and the job then floods its output: its guardian
# keeps reading (the program never blocks), keeps the last 1 MiB, and the new
# agent reports exactly which bytes were lost (issue 11). The spill stops
# where the first agent left it; the offsets after the gap are exact.
. "$SCRIPT_LIB"

# The job waits on a FIFO this script opens when it is time (no sleep loop in the job).
mkfifo go
corral run --bg --name flood --spill flood.spill -- sh -c 'echo start; read _ < go; head -c 8388608 /dev/zero | tr "\0" x; echo; echo end' >/dev/null
job_bytes() { corral jobs --json | jq '.jobs[0].bytes'; }
wait_until 30 output_is 6 job_bytes
job_pid=$(corral jobs --json | jq '.jobs[0].pid')
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
spilled=$(stat -c %s flood.spill)
timeout 60 sh -c ': > go' || fail "the job never opened its gate"
# 8 MiB with nobody reading the guardian: the program finishes only if it never blocks.
wait_until 120 sh -c "! kill -0 $job_pid 2>/dev/null"

total=$((6 + 8388608 + 1 + 4))
tail_kept=1048576
job=$(corral jobs --json | jq -c '.jobs[0]')
assert_eq "$(jq -r '.id + " " + .state + " " + (.status|tostring)' <<<"$job")" "%1 done 0"
assert_eq "$(jq '.bytes' <<<"$job")" "$total"
assert_eq "$(jq -c '.gap' <<<"$job")" "{\"from\":$spilled,\"to\":$((total - tail_kept)),\"bytes\":$((total - tail_kept - spilled))}" "the gap, exactly"
assert_eq "$(stat -c %s flood.spill)" "$spilled" "the spill stops where the gap starts"
# Past the gap the offsets are exact: the last bytes are the stream's.
assert_eq "$(corral collect --job flood --from $((total - 4)))" "end"
assert_eq "$(corral collect --job flood --from $((total - tail_kept)) | head -c 3)" "xxx"

corral reap --all >/dev/null
corral agent stop >/dev/null
