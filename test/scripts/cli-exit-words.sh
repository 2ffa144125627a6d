# An exit reads the same in every command that prints one: jobs, reap,
# pty list and pty close all say "exit N" and "killed by SIGNAME".
. "$SCRIPT_LIB"

# A session that exits 3 by itself, one killed by a signal.
corral pty open --name three -- sh -c 'exit 3' >/dev/null
corral pty open --name killed -- sh -c 'kill -TERM $$' >/dev/null
corral pty wait three --exit --timeout 30s >/dev/null
corral pty wait killed --exit --timeout 30s >/dev/null
list=$(corral pty list)
assert_contains "$list" "exit 3" "pty list: a session that exited 3"
assert_contains "$list" "killed by SIGTERM" "pty list: a session killed by SIGTERM"

# pty close prints how the session ended, in the same words.
corral pty open --name hup -- sh -c 'sleep 1000' >/dev/null
closed=$(corral pty close hup --grace 5s)
assert_contains "$closed" "killed by SIGHUP" "pty close: the session ended by its hang-up"

# A job that exits 3: its row in jobs, then reap.
corral run --bg --name job3 -- sh -c 'exit 3' >/dev/null
corral jobs wait job3 >/dev/null 2>&1 || true
assert_contains "$(corral jobs)" "done (exit 3)" "jobs: the finished job"
reaped=$(corral reap)
assert_contains "$reaped" "exit 3" "reap: the retired job"
corral agent stop >/dev/null
