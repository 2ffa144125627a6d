# `pty send --stdin` from an endless source streams it at the program's pace
# in bounded memory (issue 15, item 5): the program receives 64 MB of
# /dev/zero while neither the CLI nor the agent grows past 300 MB; when the
# program ends, the send says so and exits 1.
. "$SCRIPT_LIB"

LIMIT_KB=$((300 * 1024))
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

corral pty open --name sink -- sh -c 'stty raw -echo; head -c 64000000 >/dev/null; echo RECEIVED-ALL' >/dev/null
agent=$(corral agent status --json | sed 's/.*"pid":\([0-9]*\).*/\1/')

corral pty send sink --stdin </dev/zero 2>"$SCRIPT_TMP/send.err" &
sender=$!
peak_cli=0
peak_agent=0
# Watches memory while the program reads; fails (and stops the sender) past the limit.
watch_memory() {
  local cli agent_now
  cli=$(rss_kb "$sender")
  agent_now=$(rss_kb "$agent")
  ((cli > peak_cli)) && peak_cli=$cli
  ((agent_now > peak_agent)) && peak_agent=$agent_now
  if ((cli > LIMIT_KB || agent_now > LIMIT_KB)); then
    kill "$sender" 2>/dev/null || true
    fail "memory past 300 MB: cli ${cli} kB, agent ${agent_now} kB"
  fi
  corral pty screen sink | grep -q RECEIVED-ALL
}
wait_until 240 watch_memory

set +e
wait "$sender"
status=$?
set -e
assert_eq "$status" 1 "the send ends with 1 once the program has exited"
assert_contains "$(cat "$SCRIPT_TMP/send.err")" "has exited"
echo "peak rss: cli ${peak_cli} kB, agent ${peak_agent} kB"
corral agent stop >/dev/null
