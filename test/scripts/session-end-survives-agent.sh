# A terminal session's end outlives the agent that owned it, whichever way
# it ended: the program exited, its guardian was killed while the agent
# lived, or its guardian was killed together with the agent (no agent owned
# it when it ended). The next agent lists it as ended, with the program's
# true status or "end unknown" with the reason (never an invented status),
# `pty screen` and `pty close` answer about it, nothing of its tree is left
# running, and `reap` forgets it for good.
. "$SCRIPT_LIB"

if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip "sessions outlive their agent only with the guardian: none built here (corral probe)"
fi

agent_pid() { corral agent status --json | jq .pid; }
kill_agent_and() { # kill_agent_and [PID...]: SIGKILL the agent (and the PIDs) in one kill
  local agent
  agent=$(agent_pid)
  kill -KILL "$agent" "$@"
  wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"
}
gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}
session() { corral pty list --json | jq -c --arg n "$1" '.sessions[] | select(.name == $n)'; }
alive_of() { session "$1" | jq -r .alive; }
guardian_of() { awk '{print $4}' "/proc/$1/stat"; }
# The program, a background child ignoring SIGHUP (the hangup of a dead guardian's terminal does not end it).
tree='trap "" HUP; sleep 301 & echo $! > bg.pid; echo $$ > main.pid; echo ready; exec sleep 302'

# 1. The program exits by itself; then its agent is SIGKILLed before anyone closed it.
corral pty open --name exited -- bash --norc --noprofile -c 'echo last words; exit 5' >/dev/null
wait_until 60 output_is false alive_of exited
kill_agent_and
s=$(session exited)
assert_eq "$(jq -r '[.alive, .exit.code] | map(tostring) | join(" ")' <<<"$s")" "false 5" "the next agent shows the program's status"
assert_contains "$(corral pty screen exited)" "last words" "its last screen"
closed=$(corral pty close exited --json)
assert_eq "$(jq -r .session.exit.code <<<"$closed")" 5 "pty close says how it ended"

# 2. Its guardian is SIGKILLed while the agent lives; then `agent restart` replaces the agent.
rm -f bg.pid main.pid
corral pty open --name lost-owned -- bash --norc --noprofile -c "$tree" >/dev/null
wait_until 60 test -s main.pid
kill -KILL "$(guardian_of "$(cat main.pid)")"
wait_until 60 output_is false alive_of lost-owned
before=$(session lost-owned | jq -c .exit)
corral agent restart >/dev/null
s=$(session lost-owned)
assert_eq "$(jq -c .exit <<<"$s")" "$before" "the restarted agent shows the same end"
assert_eq "$(jq -r '[.exit.code, .exit.signal, (.exit.supervisorLost != null)] | map(tostring) | join(" ")' <<<"$s")" "null null true" "end unknown, with the loss"
wait_until 60 gone "$(cat bg.pid)"
wait_until 60 gone "$(cat main.pid)"

# 3. Its guardian and the agent are SIGKILLed together: nobody owned the session when it ended.
rm -f bg.pid main.pid
corral pty open --name lost-unowned -- bash --norc --noprofile -c "$tree" >/dev/null
wait_until 60 test -s main.pid
id=$(session lost-unowned | jq -r .id)
kill_agent_and "$(guardian_of "$(cat main.pid)")"
s=$(session lost-unowned)
[[ -n "$s" ]] || fail "the next agent forgot the session whose guardian died with its agent: $(corral pty list 2>&1)"
assert_eq "$(jq -r '[.id, .alive, .exit.code, .exit.signal] | map(tostring) | join(" ")' <<<"$s")" "$id false null null" "listed under its id as ended, its status unknown"
assert_contains "$(jq -r .exit.supervisorLost.cause <<<"$s")" "no agent" "the reason says it ended while no agent held it"
screen=$(corral pty screen lost-unowned --json)
assert_eq "$(jq -r '[.screen.alive, (.screen.exit.supervisorLost != null)] | map(tostring) | join(" ")' <<<"$screen")" "false true" "pty screen says it ended and why"
closed=$(corral pty close lost-unowned --json)
assert_eq "$(jq -r '[.session.exit.code, .session.exit.signal, (.session.exit.supervisorLost != null)] | map(tostring) | join(" ")' <<<"$closed")" "null null true" "pty close says its end is unknown, with the loss"
# What the dead guardian's tree left (the child ignoring SIGHUP) was ended by the new agent.
wait_until 60 gone "$(cat bg.pid)"
wait_until 60 gone "$(cat main.pid)"

# 4. Once more across an agent that dies: the ends stay until reaped, then are gone for good.
kill_agent_and
assert_eq "$(corral pty list --json | jq -r '[.sessions[].name] | join(" ")')" "exited lost-owned lost-unowned" "every ended session, in order"
reaped=$(corral reap --json)
assert_eq "$(jq '.sessions | length' <<<"$reaped")" 3 "reap retires them"
kill_agent_and
assert_eq "$(corral pty list --json | jq '.sessions | length')" 0 "reaped: forgotten by the next agent too"

# 5. A session without a guardian (its terminal is the agent's own: node-pty) ends with its agent:
# the next agent lists it as ended, its end unknown with the reason, and ends what ignored the hangup.
if [[ "$(corral probe --json | jq -r .pty.nodePty.loadable)" != true ]]; then
  skip_part "a session without the guardian: node-pty cannot be loaded here (corral probe)"
else
  rm -f bg.pid main.pid
  CORRAL_GUARDIAN=never corral pty open --name agent-held -- bash --norc --noprofile -c "$tree" >/dev/null
  wait_until 60 test -s main.pid
  wait_until 60 test -s bg.pid
  kill_agent_and
  s=$(session agent-held)
  [[ -n "$s" ]] || fail "the next agent forgot the session that ended with its agent: $(corral pty list 2>&1)"
  assert_eq "$(jq -r '[.alive, .exit.code, .exit.signal] | map(tostring) | join(" ")' <<<"$s")" "false null null" "ended, its status unknown"
  assert_contains "$(jq -r .exit.unknownWhy <<<"$s")" "ended while it ran" "the reason says it ended with its agent"
  wait_until 60 gone "$(cat bg.pid)"
  wait_until 60 gone "$(cat main.pid)"
  corral reap >/dev/null
  corral agent stop >/dev/null
fi
