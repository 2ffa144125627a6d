# Helpers for test/scripts/*.sh: sourced as `. "$SCRIPT_LIB"`.
# Every wait here is a condition polled against a deadline, never a fixed pause.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# skip REASON: the script cannot run here; the harness reports a skip with REASON (never a pass).
skip() {
  echo "SKIP: $*"
  exit 77
}

# skip_part REASON: one part of the script cannot run here; the rest goes on.
# The harness reports each such part as a skipped subtest with its reason.
skip_part() {
  echo "SKIP (part): $*"
  echo "$*" >> "${SCRIPT_SKIPS:-/dev/null}"
}

# wait_until SECONDS COMMAND...: runs COMMAND until it succeeds or SECONDS pass.
# Polls every 0.05 s for the first second, then every 0.25 s: many COMMANDs
# start corral (a runtime start-up each), and a tight loop of them costs the
# suite CPU while the condition is seconds away.
wait_until() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  local tries=0
  until "$@"; do
    if ((SECONDS >= deadline)); then
      fail "timed out after ${seconds}s waiting for: $*"
    fi
    if ((++tries <= 20)); then sleep 0.05; else sleep 0.25; fi
  done
}

# output_is EXPECTED COMMAND...: COMMAND's output, taken anew at each call, is EXPECTED.
# For wait_until: `wait_until 30 test "$(f)" = 6` would expand $(f) once, before the wait.
output_is() {
  local want=$1
  shift
  [ "$("$@")" = "$want" ]
}

assert_eq() {
  [[ "$1" == "$2" ]] || fail "${3:-values differ}: expected [$2], got [$1]"
}

assert_contains() {
  [[ "$1" == *"$2"* ]] || fail "${3:-text does not contain [$2]}: [$1]"
}

# A private tmux server for this script, ended when the script exits.
tmux_private() {
  TMUX_SOCKET="$SCRIPT_TMP/tmux.sock"
  trap 'tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true' EXIT
}
tmx() {
  tmux -S "$TMUX_SOCKET" "$@"
}
