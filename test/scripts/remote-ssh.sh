# The same commands against another machine's agent, over OpenSSH: a private
# sshd on 127.0.0.1 with generated keys stands for the other machine, and
# its `corral` keeps its own state dir. A remote vim and bash give the same
# screens as local ones; a lost ssh connection is status 255 with one line,
# never the command's exit, and what ran there is found by the next call;
# --via reaches the same agent through any stdio command; connect's stdout
# carries nothing but protocol.
. "$SCRIPT_LIB"
sshd_private
tmux_private
trap 'st=$?; tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true; sshd_stop; [[ $st == 0 ]] || { tail -20 "$SCRIPT_TMP/remote-state/agent.log" "$SSHD_DIR/sshd.log" >&2 2>/dev/null || true; }' EXIT
H="$SSH_DEST:$REMOTE_CORRAL"

# Nothing runs there yet: agent status says so and does not start one.
out=$(corral agent status --host "$H") && fail "agent status found an agent before any call: $out"
assert_contains "$out" "no agent is running on $H"

# vim and bash, here and there, the same keys: the same screens.
seq 1 300 | sed 's/^/line /' > "$SCRIPT_TMP/notes.txt"
vim_argv=(vim -u NONE -i NONE -n "$SCRIPT_TMP/notes.txt")
# (One call for what one call can do: every corral start here and there costs the suite time.)
corral pty open --name vi --wait-text 'notes.txt' -- "${vim_argv[@]}" >/dev/null
corral pty open --host "$H" --name vi --wait-text 'notes.txt' -- "${vim_argv[@]}" >/dev/null
for where in "" "--host=$H"; do
  corral pty send $where vi --key G --key k --key k --key d --key d --wait-text 'line 297' --wait-stable 200ms >/dev/null
done
assert_eq "$(corral pty screen --host "$H" vi)" "$(corral pty screen vi)" "the remote vim's screen"
corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty open --host "$H" --name sh -- bash --norc --noprofile >/dev/null
for where in "" "--host=$H"; do
  corral pty send $where sh 'PS1="$ "; X=42; echo set-$X' --key Enter --wait-text 'set-42' >/dev/null
  corral pty send $where sh 'clear; printf "%s\n" a b c' --key Enter --wait-text 'c' --wait-stable 200ms >/dev/null
done
assert_eq "$(corral pty screen --host "$H" sh)" "$(corral pty screen sh)" "the remote bash's screen"
# Its program runs there: in the remote agent's tree, not in ours.
remote_pid=$(corral pty list --host "$H" --json | jq -r '.sessions[] | select(.name == "sh") | .pid')
local_pid=$(corral pty list --json | jq -r '.sessions[] | select(.name == "sh") | .pid')
[[ "$remote_pid" != "$local_pid" ]] || fail "the remote session is the local one (pid $remote_pid)"

# Consecutive calls share one ssh connection: a master socket in the state dir.
masters=("$CORRAL_STATE_DIR"/ssh/*)
[[ -S "${masters[0]}" ]] || fail "no shared ssh connection under $CORRAL_STATE_DIR/ssh"

# The connection cut mid-wait: status 255, one line, not the command's outcome.
corral pty wait --host "$H" sh --text 'never-printed' --timeout 120s >wait.out 2>wait.err &
waiter=$!
ssh_of_waiter() { pgrep -P "$waiter" -x ssh >/dev/null; }
wait_until 30 ssh_of_waiter
pkill -KILL -P "$waiter" -x ssh
st=0
wait "$waiter" || st=$?
assert_eq "$st" 255 "pty wait's status when the ssh connection is cut"
assert_eq "$(wc -l < wait.err)" 1 "lines on stderr for a lost connection"
assert_contains "$(cat wait.err)" "the connection to $H was lost"
[[ ! -s wait.out ]] || fail "a lost connection printed a result: $(cat wait.out)"
# The session lives on, and the next call finds it.
assert_eq "$(corral pty list --host "$H" --json | jq -r '.sessions[] | select(.name == "sh") | .alive')" true
corral pty send --host "$H" sh 'echo after-$X' --key Enter --wait-text 'after-42' >/dev/null

# --via: any command whose stdio reaches a remote corral connect (here sh on this machine).
via="sh -c 'exec $REMOTE_CORRAL connect'"
assert_eq "$(corral pty list --via "$via" --json | jq -r '[.sessions[].name] | sort | join(",")')" "sh,vi"
assert_eq "$(corral pty screen --via "$via" sh)" "$(corral pty screen --host "$H" sh)" "the same screen through --via"
# $CORRAL_HOST does what --host does, and does not follow a --via command to the far side.
assert_eq "$(CORRAL_HOST="$H" corral pty list --json | jq -r '[.sessions[].name] | sort | join(",")')" "sh,vi"
assert_eq "$(CORRAL_HOST="$H" corral pty list --via "$via" --json | jq -r '[.sessions[].name] | sort | join(",")')" "sh,vi"

# An ssh failure is ssh's own message and status 255 (here: a host key it does not know).
st=0
mkdir -m 700 "$SCRIPT_TMP/fresh-state"
# (a state dir of its own: the shared connection above is authenticated already)
CORRAL_STATE_DIR="$SCRIPT_TMP/fresh-state" CORRAL_SSH="ssh -F $SSHD_DIR/ssh_config -o UserKnownHostsFile=/dev/null" corral pty list --host "$H" >bad.out 2>bad.err || st=$?
assert_eq "$st" 255 "status when ssh refuses the host key"
assert_contains "$(cat bad.err)" "Host key verification failed."
assert_contains "$(cat bad.err)" "corral: could not connect to $H"

# connect --host: replies only on stdout, one a line, in order.
printf '%s\n' '{"op":"list","ref":1}' '{"op":"screen","session":"sh","ref":2}' | corral connect --host "$H" >connect.out 2>connect.err
assert_eq "$(jq -r '.ref' connect.out | paste -sd,)" "1,2" "connect --host replies"
assert_eq "$(jq -r '.ok' connect.out | paste -sd,)" "true,true"

# run --host: the command runs there under its agent; a million lines stream back
# (bounded on both sides: a slow reader here slows it there); its status is ours.
st=0
corral run --host "$H" --spill "$SCRIPT_TMP/run.spill" -- sh -c 'seq 1 1000000; exit 7' >run.out || st=$?
assert_eq "$st" 7 "run --host passes the remote command's status"
assert_eq "$(wc -l < run.out) $(tail -1 run.out)" "1000000 1000000" "run --host output"
cmp -s run.out "$SCRIPT_TMP/run.spill" || fail "the spill written here differs from the output"
# collect --host: the same bounded report as a local collect.
st=0
corral collect --host "$H" --max-bytes 1k -- sh -c 'seq 1 1000000; exit 3' >collect.out || st=$?
assert_eq "$st" 3 "collect --host passes the remote command's status"
assert_eq "$(tail -1 collect.out)" 1000000
[[ $(wc -c < collect.out) -lt 200000 ]] || fail "collect --host kept $(wc -c < collect.out) bytes for --max-bytes 1k"
st=0
corral run --host "$H" --timeout 1s -- sleep 600 2>timeout.err || st=$?
assert_eq "$st" 124 "run --host --timeout"

# Jobs there: started, listed, followed and reaped from here.
id=$(corral run --bg --host "$H" --name gen -- sh -c 'seq 1 5; exit 4')
assert_eq "$id" "%1"
assert_eq "$(corral jobs --host "$H" --json | jq -r '.jobs[0].name')" gen
st=0
corral collect --host "$H" --job %1 --follow >follow.out || st=$?
assert_eq "$st" 4 "collect --job --follow --host: the job's status"
assert_eq "$(paste -sd, follow.out)" "1,2,3,4,5"
assert_contains "$(corral reap --host "$H")" "%1"
assert_eq "$(corral jobs --host "$H" --json | jq '.jobs | length')" 0
# (The sessions there end with the remote agent in sshd_stop; those here with the script's agent.)
