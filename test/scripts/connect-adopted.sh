# `corral connect` through the native client hands its stdin and stdout to
# the agent when both are pipes or sockets (as tmux's control client hands
# its own to the server): the agent answers the lines on them, the replies
# are the relay's, and nothing of the client's is held once it ends. If the
# agent dies mid-conversation, the lines it had read and not answered still
# get their agent_gone reply, with their refs, from the client.
. "$SCRIPT_LIB"

client=$(readlink -f "$(command -v corral)")
head -c 4 "$client" | grep -q ELF || skip "corral is the JavaScript CLI here (no native client built): connect relays"

corral pty open --name c -- cat > /dev/null
agent=$(corral agent status --json | jq .pid)

# `corral connect` with its stdin and stdout on pipes, for the python parts below.
cat > connect_over_pipes.py <<'PY'
import os, subprocess

def connect():
    """(the process, the write end of its stdin, the read end of its stdout)"""
    r, w = os.pipe()
    out_r, out_w = os.pipe()
    child = subprocess.Popen(["corral", "connect"], stdin=r, stdout=out_w)
    os.close(r)
    os.close(out_w)
    return child, w, out_r
PY

# Whether process $1 holds the pipe or socket that is fd $3 of process $2.
holds() {
  local target
  target=$(readlink "/proc/$2/fd/$3")
  ls -l "/proc/$1/fd" 2>/dev/null | grep -qF -- "-> $target"
}

# --- The agent takes the pipes; with CORRAL_CONNECT_RELAY=1 the client relays them.
# Bash unsets COPROC and COPROC_PID once the coprocess is reaped: kept here first.
coproc corral connect
conn=$COPROC_PID to=${COPROC[1]} from=${COPROC[0]}
echo '{"op":"list","ref":"taken"}' >&"$to"
read -r reply <&"$from"
assert_eq "$(jq -r '.ref + " " + (.ok|tostring)' <<< "$reply")" "taken true" "the first reply"
holds "$agent" "$conn" 0 || fail "the agent does not hold the client's stdin"
holds "$agent" "$conn" 1 || fail "the agent does not hold the client's stdout"
exec {to}>&-
wait "$conn" || fail "connect exited $?"

coproc CORRAL_CONNECT_RELAY=1 corral connect
conn=$COPROC_PID to=${COPROC[1]} from=${COPROC[0]}
echo '{"op":"list","ref":"relayed"}' >&"$to"
read -r reply <&"$from"
assert_eq "$(jq -r .ref <<< "$reply")" "relayed" "the relayed reply"
holds "$agent" "$conn" 0 && fail "CORRAL_CONNECT_RELAY=1: the agent holds the client's stdin"
exec {to}>&-
wait "$conn" || fail "the relaying connect exited $?"

# --- The same replies either way, for lines good and bad, over pipes and from a file.
lines='{"op":"screen","session":"nosuch","ref":1}

nope
{"op":"send","session":"c","text":"same","keys":["Enter"],"ref":"s"}
{"op":"wait","session":"c","text":"same","timeoutMs":30000,"ref":"w"}
{"op":"resize","session":"nosuch","cols":80,"rows":24}
{"op":"bogus","ref":[1,"]"]}'
taken=$(printf '%s' "$lines" | corral connect | jq -c 'del(.at, .position, .match, .screen, .waitedMs, .elapsedMs)')
relayed=$(printf '%s' "$lines" | CORRAL_CONNECT_RELAY=1 corral connect | jq -c 'del(.at, .position, .match, .screen, .waitedMs, .elapsedMs)')
assert_eq "$taken" "$relayed" "the replies taken and relayed"
assert_eq "$(wc -l <<< "$taken")" 6 "one reply a line that is not blank"
printf '%s\n' "$lines" > lines.jsonl
from_file=$(corral connect < lines.jsonl | jq -c 'del(.at, .position, .match, .screen, .waitedMs, .elapsedMs)')
assert_eq "$from_file" "$relayed" "the replies to a stdin that is a file (relayed)"

# --- Over a socket pair (as node's spawn gives), and stdin and stdout as they were after.
python3 - <<'PY' || fail "the socket pair and pipe flags check failed"
import fcntl, json, os, socket, subprocess
mine, theirs = socket.socketpair()
child = subprocess.Popen(["corral", "connect"], stdin=theirs, stdout=theirs)
theirs.close()
mine.sendall(b'{"op":"list","ref":"pair"}\n')
reply = b""
while not reply.endswith(b"\n"):
    reply += mine.recv(65536)
assert json.loads(reply)["ref"] == "pair", reply
mine.shutdown(socket.SHUT_WR)
assert mine.recv(1) == b"", "connect wrote more than one reply"
assert child.wait(60) == 0
r, w = os.pipe()
out_r, out_w = os.pipe()
child = subprocess.Popen(["corral", "connect"], stdin=r, stdout=out_w)
os.write(w, b'{"op":"list","ref":"flags"}\n')
os.close(w)
assert child.wait(60) == 0
os.close(out_w)
assert json.loads(os.read(out_r, 65536))["ref"] == "flags"
for fd in (r, out_r):
    assert not fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK, "a pipe was left non-blocking"
PY

# --- The client killed mid-conversation: its reader sees the end at once (the agent lets go).
python3 - <<'PY' || fail "killing the client left its pipes held"
import json, os, select, signal
from connect_over_pipes import connect
child, w, out_r = connect()
os.write(w, b'{"op":"list","ref":"before"}\n')
assert json.loads(os.read(out_r, 65536))["ref"] == "before"
os.write(w, b'{"op":"wait","session":"c","text":"never-shown","timeoutMs":600000,"ref":"pending"}\n')
child.send_signal(signal.SIGKILL)
child.wait()
ready, _, _ = select.select([out_r], [], [], 60)
assert ready, "stdout never ended after the client was killed"
assert os.read(out_r, 65536) == b"", "a reply came after the client was killed"
PY

# --- The agent killed with a line in flight and half a line read: both answered by the client.
coproc corral connect
conn=$COPROC_PID to=${COPROC[1]} from=${COPROC[0]}
printf '%s\n%s\n%s' '{"op":"list","ref":"first"}' \
  '{"op":"wait","session":"c","text":"never-shown","timeoutMs":600000,"ref":"in-flight"}' \
  '{"op":"list","ref":"cut' >&"$to"
read -r reply <&"$from"
assert_eq "$(jq -r .ref <<< "$reply")" "first" "the reply before the kill"
holds "$agent" "$conn" 0 || fail "the agent does not hold the client's stdin"
kill -KILL "$agent"
read -r reply <&"$from"
assert_eq "$(jq -c '[.ref, .ok, .error.code]' <<< "$reply")" '["in-flight",false,"agent_gone"]' "the line the agent read and did not answer"
printf '%s\n%s\n' '"}' '{"op":"list","ref":"later"}' >&"$to"
read -r reply <&"$from"
assert_eq "$(jq -c '[.ref, .error.code]' <<< "$reply")" '["cut","agent_gone"]' "the line the agent had read half of"
read -r reply <&"$from"
assert_eq "$(jq -c '[.ref, .error.code]' <<< "$reply")" '["later","agent_gone"]' "a line after the agent died"
exec {to}>&-
set +e
wait "$conn"
status=$?
set -e
assert_eq "$status" 1 "connect's status once the agent went away"

# The next agent takes the session back; a new connect is taken again.
out=$(echo '{"op":"screen","session":"c","ref":"again"}' | corral connect)
assert_eq "$(jq -c '[.ref, .ok, .screen.alive]' <<< "$out")" '["again",true,true]' "connect with the next agent"
corral pty close c > /dev/null

# --- A reply cut by the agent's death (its reader had stopped reading): the line is ended, then answered.
corral pty open --name big -- sh -c 'seq -f "%0.f: full rows of screen text, long enough to fill a pipe with a screen reply" 1 3000; exec cat' > /dev/null
corral pty wait big --regex '^3000: full rows' --timeout 60s > /dev/null
agent=$(corral agent status --json | jq .pid)
AGENT=$agent python3 - <<'PY' || fail "the cut reply"
import array, fcntl, json, os, signal, termios, time
from connect_over_pipes import connect
child, w, out_r = connect()
os.write(w, b'{"op":"screen","session":"big","scrollback":3000,"ref":"cut"}\n')
def waiting():
    n = array.array("i", [0])
    fcntl.ioctl(out_r, termios.FIONREAD, n)
    return n[0]
deadline = time.monotonic() + 60
while waiting() < 65536:  # the pipe is full: the reply (far larger) went out in part
    assert time.monotonic() < deadline, f"the pipe never filled ({waiting()} bytes)"
    time.sleep(0.01)
os.kill(int(os.environ["AGENT"]), signal.SIGKILL)
os.close(w)
out = b""
while chunk := os.read(out_r, 1 << 20):
    out += chunk
assert child.wait(60) == 1
lines = out.split(b"\n")
assert lines[-1] == b"", "the output ends with a line end"
gone = json.loads(lines[-2])
assert gone["ref"] == "cut" and gone["error"]["code"] == "agent_gone", gone
assert len(lines) == 3, f"the cut reply, then agent_gone: {len(lines) - 1} lines"
assert lines[0].startswith(b'{"ref":"cut","ok":true') and len(lines[0]) >= 65536, lines[0][:80]
PY
corral pty close big > /dev/null
