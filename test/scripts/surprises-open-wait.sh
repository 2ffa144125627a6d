# pty open --wait-*: open returns once the program is ready, so the first
# send never races its start (the README's python example, as written).
. "$SCRIPT_LIB"

corral pty open --name py --wait-ready -- python3 >/dev/null
corral pty send py 'print(6*7)' --key Enter --wait-regex '^42$' >/dev/null
screen=$(corral pty screen py)
assert_eq "$(printf '%s\n' "$screen" | grep -c 'print(6\*7)')" 1 "the input shows once, after the prompt: $screen"
printf '%s\n' "$screen" | grep -qx '>>> print(6\*7)' || fail "no prompt before the input: $screen"
corral pty close py >/dev/null

# --wait-text from position 0, --wait-regex, --wait-stable; --json adds the wait.
id=$(corral pty open --wait-text 'hello there' -- sh -c 'echo hello there; exec cat')
assert_eq "$id" 2
corral pty open --json --wait-regex '^ready [0-9]+$' -- sh -c 'echo ready 7; exec cat' >open.json
assert_eq "$(jq -r .wait.fired open.json)" regex
assert_eq "$(jq -r '.wait.match.text' open.json)" "ready 7"
corral pty open --name calm --wait-stable 200ms -- sh -c 'echo calm; exec cat' >/dev/null

# A condition that never holds: 124, the session stays open and is named.
set +e
corral pty open --name late --json --wait-text never --timeout 1s -- cat >late.json
status=$?
set -e
assert_eq "$status" 124
assert_eq "$(jq -r .error.code late.json)" timeout
assert_eq "$(jq -r .session.name late.json)" late
corral pty close late >/dev/null
set +e
corral pty open --timeout 1s -- cat 2>err
status=$?
set -e
assert_eq "$status" 2 "--timeout without a --wait-*"
corral agent stop >/dev/null 2>&1 || true
