# `kill -TSTP` to a `corral run --tty` whose stdin is not a terminal parks its
# job (SIGSTOP to the job's tree, exit 148), and `corral fg` resumes it, round
# after round, for a program that keeps forking. The job shim used to see the
# stop again as the tree was continued and stop itself anew: `fg` then found
# the job stopped, or never saw it run (about 1 round in 3).
. "$SCRIPT_LIB"

state() { corral jobs list --json | grep -o '"state":"[a-z]*"' | head -1; }
# Ended: listed as done, or gone from the list (its status went to the foreground corral).
ended() { case "$(state)" in '' | '"state":"done"') return 0 ;; *) return 1 ;; esac; }

corral run --tty -- sh -c 'while :; do /bin/true; done' </dev/null >run.out 2>&1 &
client=$!
for round in 1 2 3 4 5 6; do
  wait_until 30 output_is '"state":"running"' state
  kill -TSTP "$client"
  set +e
  wait "$client"
  status=$?
  set -e
  assert_eq "$status" 148 "round $round: the parked job's status"
  wait_until 30 output_is '"state":"stopped"' state
  corral fg %1 </dev/null >"fg.$round.out" 2>&1 &
  client=$!
done

# The last fg holds it running: SIGTERM to corral ends the job's whole tree.
wait_until 30 output_is '"state":"running"' state
kill -TERM "$client"
set +e
wait "$client"
status=$?
set -e
assert_eq "$status" 143 "corral dies of the SIGTERM that ended its job"
wait_until 30 ended
