# `pty send --stdin` from an endless source streams it at the program's pace
# in bounded memory (issue 15, item 5): the program receives 16 MB of
# /dev/zero while neither the CLI nor the agent grows past 300 MB; when the
# program ends, the send says so and exits 1. 16 MB is enough: a sender that
# buffers reads /dev/zero far faster than the program drains it (the old CLI
# passed 650 MB within seconds), and a bigger stream only made this script
# slow on a loaded machine (64 MB took minutes).
. "$SCRIPT_LIB"

LIMIT_KB=$((300 * 1024))
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

corral pty open --name sink -- sh -c 'stty raw -echo; head -c 16000000 >/dev/null; echo RECEIVED-ALL' >/dev/null
agent=$(corral agent status --json | sed 's/.*"pid":\([0-9]*\).*/\1/')

corral pty send sink --stdin </dev/zero 2>"$SCRIPT_TMP/send.err" &
sender=$!
peak_cli=0
peak_agent=0
# Watches memory (reading /proc only: no CLI runs competing with the stream)
# until the send ends, which it does once the program has exited; fails (and
# stops the sender) past the limit.
send_ended() {
  local cli agent_now
  cli=$(rss_kb "$sender")
  agent_now=$(rss_kb "$agent")
  ((cli > peak_cli)) && peak_cli=$cli
  ((agent_now > peak_agent)) && peak_agent=$agent_now
  if ((cli > LIMIT_KB || agent_now > LIMIT_KB)); then
    kill "$sender" 2>/dev/null || true
    fail "memory past 300 MB: cli ${cli} kB, agent ${agent_now} kB"
  fi
  ! kill -0 "$sender" 2>/dev/null
}
wait_until 240 send_ended

set +e
wait "$sender"
status=$?
set -e
assert_eq "$status" 1 "the send ends with 1 once the program has exited"
assert_contains "$(cat "$SCRIPT_TMP/send.err")" "has exited"
corral pty wait sink --text RECEIVED-ALL --timeout 30s >/dev/null || fail "the program did not receive all 16 MB"
echo "peak rss: cli ${peak_cli} kB, agent ${peak_agent} kB"
corral agent stop >/dev/null
