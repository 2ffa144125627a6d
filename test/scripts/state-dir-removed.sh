# A state dir removed while sessions and jobs run (a harness's cleanup after
# a refused `agent stop`, `rm -rf $XDG_RUNTIME_DIR` at logout) leaves
# nothing running that no command can reach:
# - an agent whose socket is gone recreates it, and every command finds it
#   and its sessions again;
# - an agent that cannot recreate it ends what it holds after a bound;
# - a guardian left without its agent and without its socket ends its tree
#   after a short bound;
# - one that cannot (stopped) is found by `reap --all` by its process.
. "$SCRIPT_LIB"

if [[ "$(corral probe --json | jq -r .guardian.built)" != true ]]; then
  skip "no guardian built here (corral probe): sessions then live in the agent alone"
fi
gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}
agent_pid() { corral agent status --json | jq .pid; }

# 1. The agent recreates its socket: the session is reachable again.
corral pty open --name kept -- sh -c 'echo $$ > kept.pid; exec sleep 300' >/dev/null
wait_until 30 test -s kept.pid
agent=$(agent_pid)
rm -rf "$CORRAL_STATE_DIR"
wait_until 60 test -S "$CORRAL_STATE_DIR/agent.sock"
assert_eq "$(agent_pid)" "$agent" "the same agent answers"
assert_eq "$(corral pty list --json | jq -r '.sessions[0].name + " " + (.sessions[0].alive|tostring)')" "kept true"
assert_contains "$(cat /proc/$agent/fd/2)" "was removed; listening on it again" "said in its log"
corral agent stop --force >/dev/null
wait_until 30 gone "$(cat kept.pid)"

# 2. It cannot: a file took the state dir's path (root too cannot make a directory there). What it holds ends after a bound.
export CORRAL_STATE_DIR="$SCRIPT_TMP/second"
corral pty open --name doomed -- sh -c 'echo $$ > doomed.pid; exec sleep 300' >/dev/null
corral run --bg --name doomed-job -- sh -c 'echo $$ > job.pid; exec sleep 300' >/dev/null
wait_until 30 test -s doomed.pid
wait_until 30 test -s job.pid
agent=$(agent_pid)
log_fd="/proc/$agent/fd/2"
rm -rf "$CORRAL_STATE_DIR"
echo "not a directory" > "$CORRAL_STATE_DIR"
wait_until 60 grep -q "cannot be recreated" "$log_fd"
wait_until 90 gone "$agent"
rm "$CORRAL_STATE_DIR"
wait_until 30 gone "$(cat doomed.pid)"
wait_until 30 gone "$(cat job.pid)"

# 3. The agent dies, then the state dir goes: the guardian ends its tree by itself.
export CORRAL_STATE_DIR="$SCRIPT_TMP/third"
corral pty open --name orphan -- sh -c 'echo $$ > orphan.pid; sleep 301 & exec sleep 300' >/dev/null
wait_until 30 test -s orphan.pid
kill -KILL "$(agent_pid)"
rm -rf "$CORRAL_STATE_DIR"
wait_until 60 gone "$(cat orphan.pid)"

# 4. The same with the guardian stopped (it cannot end anything): reap --all finds it by its process.
export CORRAL_STATE_DIR="$SCRIPT_TMP/fourth"
corral pty open --name stuck -- sh -c 'echo $$ > stuck.pid; exec sleep 300' >/dev/null
wait_until 30 test -s stuck.pid
guardian=$(awk '{print $4}' "/proc/$(cat stuck.pid)/stat")
kill -KILL "$(agent_pid)"
rm -rf "$CORRAL_STATE_DIR"
kill -STOP "$guardian"
out=$(corral reap --all --grace 1s)
assert_contains "$out" "orphan of agent 0: guardian $guardian found by its process: its socket"
assert_contains "$out" "receipt confirmed"
wait_until 30 gone "$(cat stuck.pid)"
wait_until 30 gone "$guardian"
