# The guardian dies (SIGKILL, as the OOM killer would) while it supervises a
# tree under `run`, `collect` and a background job: the loss is reported as
# its own fact ("supervisor lost", status 125, never a status the child did
# not have), and the whole tree (child, background grandchild, setsid
# escapee) is gone afterwards.
. "$SCRIPT_LIB"

if ! corral probe | grep -q '^guardian *in use'; then
  skip "no guardian in use here (corral probe)"
fi

# The tree: the child shell, a background grandchild in its group, and an
# escapee in a session of its own; each writes its pid.
TREE='echo $$ > child.pid; sleep 1000 & echo $! > grandchild.pid; setsid sh -c "echo \$\$ > escapee.pid; exec sleep 1001" & wait'

gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}
all_pids_written() { [[ -s child.pid && -s grandchild.pid && -s escapee.pid ]]; }
kill_guardian() { # the guardian is the child's parent
  local guardian
  guardian=$(ps -o ppid= -p "$(cat child.pid)" | tr -d ' ')
  [[ "$(cat "/proc/$guardian/comm")" == corral-guardia* ]] || fail "parent of the child is not the guardian: $guardian"
  kill -KILL "$guardian"
}
assert_tree_gone() {
  local what=$1 p
  for p in "$(cat child.pid)" "$(cat grandchild.pid)" "$(cat escapee.pid)"; do
    gone "$p" || fail "$what: pid $p ($(tr '\0' ' ' < "/proc/$p/cmdline")) still runs after the guardian was lost"
  done
}
fresh() { rm -f child.pid grandchild.pid escapee.pid; }

# --- run ---
fresh
corral run -- bash -c "$TREE" 2> run.err &
corral_pid=$!
wait_until 60 all_pids_written
kill_guardian
set +e
wait "$corral_pid"
status=$?
set -e
assert_eq "$status" 125 "run: a lost guardian is corral's failure, not the child's status"
assert_contains "$(cat run.err)" "supervisor lost" "run: the loss is on stderr"
assert_contains "$(cat run.err)" "was killed by SIGKILL" "run: stderr says how the guardian ended"
assert_tree_gone run

# --- collect --json ---
fresh
corral collect --json -- bash -c "$TREE" > collect.json 2> collect.err &
corral_pid=$!
wait_until 60 all_pids_written
kill_guardian
set +e
wait "$corral_pid"
status=$?
set -e
assert_eq "$status" 125 "collect: status after a lost guardian"
assert_contains "$(cat collect.err)" "supervisor lost" "collect: the loss is on stderr"
assert_contains "$(cat collect.json)" '"supervisorLost":{' "collect --json: the loss is in the facts"
assert_contains "$(cat collect.json)" '"outputComplete":false' "collect --json: output is not complete"
assert_tree_gone collect

# --- a background job ---
fresh
corral run --bg --name lost -- bash -c "$TREE" > /dev/null
wait_until 60 all_pids_written
kill_guardian
job_done() { [[ "$(corral jobs --json)" == *'"state":"done"'* ]]; }
wait_until 60 job_done
jobs_json=$(corral jobs --json)
assert_contains "$jobs_json" '"supervisorLost":{' "job: the loss is in the facts"
assert_contains "$jobs_json" '"status":125' "job: status after a lost guardian"
assert_tree_gone job
reap_out=$(corral reap --all)
assert_contains "$reap_out" "supervisor lost" "reap names the loss"
assert_contains "$reap_out" "receipt confirmed" "reap: the tree was terminated, so the receipt is confirmed"
