# The agent is SIGKILLed while it holds vim, a bash session and a background
# job writing a known stream; the next command starts a new agent that
# re-adopts all three (issue 11): vim's screen equals tmux's after the same
# keys and a redraw, bash keeps its state, the job keeps its id and its
# spill is the stream byte for byte (what was written while no agent held it
# included), and following it from the old offset gives the rest.
. "$SCRIPT_LIB"
tmux_private

seq 1 300 | sed 's/^/line /' > notes.txt
vim_argv=(vim -u NONE -i NONE -n notes.txt)
tmx new-session -d -x 80 -y 24 -- env LESS= "${vim_argv[@]}"
corral pty open --name vi --cols 80 --rows 24 -- env LESS= "${vim_argv[@]}" >/dev/null
corral pty wait vi --text 'notes.txt' >/dev/null
corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty send sh 'PS1="$ "; X=42; echo set-$X' --key Enter --wait-text 'set-42' >/dev/null

# The job writes 2000 lines, then (once told) 3000 more: those are written while no agent runs.
# The job waits on a FIFO this script opens when it is time (no sleep loop in the job).
mkfifo go
corral run --bg --name gen --spill gen.spill -- sh -c 'seq 1 2000; read _ < go; seq 2001 5000' >/dev/null
first=$(seq 1 2000 | wc -c)
job_bytes() { corral jobs --json | sed 's/.*"bytes":\([0-9]*\).*/\1/'; }
wait_until 30 output_is "$first" job_bytes
job_pid=$(corral jobs --json | sed 's/.*"pid":\([0-9]*\).*/\1/')

# The same keys to both vims.
for k in j j j j d d; do tmx send-keys "$k"; corral pty send vi --key "$k" >/dev/null; done
corral pty wait vi --text 'line 6' --stable 300ms >/dev/null

# Each is written down for the next agent: 0600, beside the guardians' sockets; the token never reaches the log.
records=("$CORRAL_STATE_DIR"/guardians/*.json)
assert_eq "${#records[@]}" 3 "one record per session and job"
for f in "${records[@]}"; do
  assert_eq "$(stat -c %a "$f")" 600 "record $f"
  token=$(jq -r .token "$f")
  ! grep -qF "$token" "$CORRAL_STATE_DIR/agent.log" || fail "a guardian's token is in the agent's log"
done

before=$(corral pty list --json | jq -c '[.sessions[] | {id, name, size, position}]')
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
timeout 60 sh -c ': > go' || fail "the job never opened its gate"
# The job's program finishes while no agent holds it: its guardian reads everything.
wait_until 60 sh -c "! kill -0 $job_pid 2>/dev/null"

# The next command starts a new agent, which re-adopts both sessions and the job.
after=$(corral pty list --json | jq -c '[.sessions[] | {id, name, size, position}]')
assert_eq "$after" "$before" "same ids, names, sizes and positions"
new_agent=$(corral agent status --json | jq .pid)
[[ "$new_agent" != "$agent" ]] || fail "the agent was not replaced"

# vim: after a redraw (Ctrl-L in both), the screen is tmux's.
tmx send-keys C-l
corral pty send vi --key C-l >/dev/null
corral pty wait vi --stable 500ms >/dev/null
same_screen() { [[ "$(corral pty screen vi)" == "$(tmx capture-pane -p)" ]]; }
wait_until 30 same_screen
[[ "$(corral pty screen vi --json | jq .screen.approximate)" == "null" ]] || fail "the whole history was in the tail: not approximate"

# bash keeps its state and its history.
corral pty send sh 'echo again-$X' --key Enter --wait-text 'again-42' >/dev/null
corral pty send sh 'history | tail -3' --key Enter --wait-text 'echo again' >/dev/null
assert_contains "$(corral pty screen sh)" "set-42"

# The job: same id, done with its status, its spill the whole stream.
jobs_json=$(corral jobs --json)
assert_eq "$(jq -r '.jobs[0].id + " " + .jobs[0].name + " " + .jobs[0].state + " " + (.jobs[0].status|tostring)' <<<"$jobs_json")" "%1 gen done 0"
assert_eq "$(jq '.jobs[0].bytes' <<<"$jobs_json")" "$(seq 1 5000 | wc -c)"
assert_eq "$(jq '.jobs[0].gap' <<<"$jobs_json")" "null" "nothing was lost"
assert_eq "$(sha256sum < gen.spill)" "$(seq 1 5000 | sha256sum)" "the spill is the stream"
# Following from the offset the first agent had reached gives exactly the rest.
assert_eq "$(corral collect --job gen --from "$first" --follow | sha256sum)" "$(seq 2001 5000 | sha256sum)"

corral reap --all >/dev/null
corral agent stop >/dev/null
shopt -s nullglob
left=("$CORRAL_STATE_DIR"/guardians/*.json)
assert_eq "${#left[@]}" 0 "no record outlives what it names"
