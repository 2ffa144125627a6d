# Two agents started at once on one socket after the agent died (two
# clients racing, one of them SIGKILLed while it held the clients' start
# lock): exactly one re-adopts what the dead agent left, and every session
# stays with it, alive and listed; the other stops without touching a
# guardian (before, both re-adopted some, the loser failed to bind, and the
# sessions it had taken vanished).
. "$SCRIPT_LIB"

if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip "sessions outlive their agent only with the guardian: none built here (corral probe)"
fi
for n in 1 2 3 4; do corral pty open --name "s$n" -- bash --norc --noprofile >/dev/null; done
g1=$(awk '{print $4}' "/proc/$(corral pty list --json | jq '.sessions[0].pid')/stat")
agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

# The first session's guardian is held still: the first agent to re-adopt waits on it (up to 10 s)
# while the second one starts.
kill -STOP "$g1"
corral agent run --socket "$CORRAL_STATE_DIR/agent.sock" 2> first.log &
first=$!
wait_until 60 grep -q "re-adopting" first.log
corral agent run --socket "$CORRAL_STATE_DIR/agent.sock" 2> second.log &
second=$!
# The second either waits for the first (one agent starts at a time) or re-adopts beside it.
wait_until 60 grep -q "re-adopting\|waiting until it serves" second.log
kill -CONT "$g1"
# One of them serves; the other ends by itself.
wait_until 60 sh -c "! kill -0 $first 2>/dev/null || ! kill -0 $second 2>/dev/null"
wait_until 60 output_is "s1 s2 s3 s4" sh -c "corral pty list --json | jq -r '[.sessions[] | select(.alive) | .name] | join(\" \")'"
corral pty list 2> list.err >/dev/null
assert_eq "$(cat list.err)" "" "nothing reported lost"
for n in 1 2 3 4; do corral pty close "s$n" >/dev/null; done
corral agent stop >/dev/null
wait "$first" "$second" 2>/dev/null || true
corral reap --all >/dev/null 2>&1 || true
