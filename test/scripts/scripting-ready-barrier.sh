# `pty wait --ready` on a loaded machine: the program wrote its last words and
# went back to reading the terminal, but those bytes still sit in the PTY
# (here: the session's guardian is stopped, so nobody reads the terminal).
# The wait must not say `ready` before they have arrived: it asks the
# guardian for a barrier (answered only after what the terminal holds), and
# ends once the guardian runs again, with the output on the screen.
. "$SCRIPT_LIB"

mkfifo go
corral pty open --name late -- sh -c 'cat go >/dev/null; echo late-output; exec cat' >/dev/null
pid=$(corral pty list --json | jq -r '.sessions[] | select(.name == "late") | .pid')
guardian=$(ps -o ppid= -p "$pid" | tr -d ' ')
[[ "$(ps -o comm= -p "$guardian")" == corral-guardian* ]] || fail "the session's parent is not its guardian: $(ps -o comm= -p "$guardian")"

kill -STOP "$guardian"
trap 'kill -CONT "$guardian" 2>/dev/null || true' EXIT
echo go > go
# The program has written its line and is blocked reading the terminal (cat).
wait_until 30 bash -c "[[ \$(ps -o comm= -p $pid) == cat && \$(ps -o stat= -p $pid) == S* ]]"
corral pty wait late --ready --json --timeout 60s > waited.json &
waiter=$!
# The agent asked the stopped guardian for the barrier: its socket holds the request.
guardian_queue() { ss -xpn 2>/dev/null | awk -v p="pid=$1," '$0 ~ p && $3 > 0 { found = 1 } END { exit !found }'; }
wait_until 30 guardian_queue "$guardian"
kill -0 "$waiter" 2>/dev/null || fail "wait --ready ended while the output was still in the terminal: $(cat waited.json)"

kill -CONT "$guardian"
wait "$waiter"
assert_eq "$(jq -r .fired waited.json)" "ready" "the wait ends ready once the guardian runs"
screen=$(corral pty screen late)
assert_contains "$screen" "late-output" "ready means the program's last output is on the screen"
corral pty close late --force >/dev/null
