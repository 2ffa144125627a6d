# Parallel CI steps as background jobs, then one wait that fails if one failed.
. "$SCRIPT_LIB"

corral run --bg --name lint -- sh -c 'while [ ! -e go ]; do sleep 0.05; done; exit 0' >/dev/null
corral run --bg --name unit -- sh -c 'while [ ! -e go ]; do sleep 0.05; done; exit 3' >/dev/null
corral jobs wait lint unit >wait.out 2>wait.err &
waiter=$!
wait_until 30 grep -q 'waiting for' wait.err
touch go
set +e
wait "$waiter"
status=$?
set -e
assert_eq "$status" 3 "the status of the job that failed"
assert_eq "$(wc -l <wait.out | tr -d ' ')" 2 "one line per job"
assert_contains "$(cat wait.out)" "done (exit 3)"

# The failed job's log, last lines only.
corral run --bg --name log -- seq 1 500 >/dev/null
corral jobs wait log >/dev/null 2>&1
assert_eq "$(corral collect --job log --tail-lines 2)" $'499\n500'

# Nothing left running: wait returns 0 at once.
corral jobs wait 2>/dev/null

# A wait that times out says which jobs still run, the timeout in the words it was given, and 124.
corral run --bg --name slow -- sh -c 'while [ ! -e stop ]; do sleep 0.05; done' >/dev/null
set +e
corral jobs wait slow --timeout 1s 2>timeout.err
status=$?
set -e
assert_eq "$status" 124 "jobs wait --timeout"
assert_contains "$(cat timeout.err)" "--timeout 1s passed; still running: %"
touch stop
corral jobs wait slow >/dev/null 2>&1
