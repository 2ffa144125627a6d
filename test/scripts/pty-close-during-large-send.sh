# A script feeds a big file to a program that stopped reading its input,
# then gives up and closes the session. The close must not wait behind the
# unsent input, the agent must keep answering meanwhile (other sessions,
# `pty list`), and the blocked send must end once the session is gone.
# Both terminal backends: the guardian and node-pty (guardian: never).
. "$SCRIPT_LIB"

head -c 8000000 /dev/zero | tr '\0' 'x' | fold -w 79 > "$SCRIPT_TMP/big.txt"

for backend in auto never; do
  state="$SCRIPT_TMP/state-$backend"
  export CORRAL_STATE_DIR="$state"
  id=$(CORRAL_GUARDIAN=$backend corral pty open -- sh -c 'exec sleep 600')
  other=$(CORRAL_GUARDIAN=$backend corral pty open -- cat)

  corral pty send "$id" --stdin < "$SCRIPT_TMP/big.txt" > "$SCRIPT_TMP/send-$backend.out" 2>&1 &
  sender=$!
  # The terminal echoes what it receives until its input queue is full; then the send waits.
  wait_until 30 sh -c "[ \"\$(corral pty list --json | jq '.sessions[] | select(.id == \"$id\") | .position')\" -gt 1000 ]"

  # The agent still answers, and another session still works.
  corral pty list > /dev/null
  corral pty send "$other" 'still here' --key Enter --wait-text 'still here' --timeout 30s > /dev/null

  # The close goes through at once, whatever input still waits.
  timeout 60 corral pty close "$id" > "$SCRIPT_TMP/close.out" || fail "pty close hung or failed behind a large send ($backend)"
  assert_contains "$(cat "$SCRIPT_TMP/close.out")" "killed by SIGHUP"

  # The blocked send ends: the session it was feeding is gone.
  set +e
  wait "$sender"
  status=$?
  set -e
  [ "$status" -ne 0 ] || fail "the send into a closed session reported success ($backend)"

  corral pty close "$other" > /dev/null
  corral agent stop > /dev/null
done
