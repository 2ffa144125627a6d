# Helpers for test/scripts/*.sh: sourced as `. "$SCRIPT_LIB"`.
# Every wait here is a condition polled against a deadline, never a fixed pause.

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# wait_until SECONDS COMMAND...: runs COMMAND until it succeeds or SECONDS pass.
wait_until() {
  local seconds=$1
  shift
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      fail "timed out after ${seconds}s waiting for: $*"
    fi
    sleep 0.05
  done
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
