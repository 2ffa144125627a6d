# corral's own decisions, one line each on stderr, the same in the facts:
# its timeout (how long, how many processes got SIGTERM, SIGKILL or not), a
# writer that outlived the command (pid and argv). --quiet silences only the
# lines; statuses stay.
. "$SCRIPT_LIB"

# A timeout that SIGTERM ends.
set +e
corral collect --timeout 1s --facts f1.json -- sh -c 'echo started; sleep 300' >out 2>err
status=$?
set -e
assert_eq "$status" 124
assert_eq "$(cat out)" "started"
line=$(grep '^corral:' err)
[[ "$line" =~ ^corral:\ timed\ out\ after\ 1s\;\ SIGTERM\ to\ [0-9]+\ process(es)?,\ gone\ within\ the\ 5s\ grace$ ]] || fail "timeout line: [$line]"
assert_contains "$(cat f1.json)" '"timedOut":true'
assert_contains "$(cat f1.json)" '"signalled":'

# A timeout that needs SIGKILL: the tree ignores SIGTERM.
set +e
corral run --timeout 1s --grace 1s --facts f2.json -- sh -c 'trap "" TERM; sleep 300 & sleep 300 & wait' 2>err
status=$?
set -e
assert_eq "$status" 124
line=$(grep '^corral: timed out' err)
[[ "$line" =~ ^corral:\ timed\ out\ after\ 1s\;\ SIGTERM\ to\ 3\ processes,\ SIGKILL\ after\ 1s\ grace$ ]] || fail "forced line: [$line]"
assert_contains "$(cat f2.json)" '"forced":true'
assert_contains "$(cat f2.json)" '"signalled":3'

# --quiet: no line, same status, same facts.
set +e
corral run --quiet --timeout 1s --facts f3.json -- sleep 300 2>err
status=$?
set -e
assert_eq "$status" 124 "--quiet keeps the status"
assert_eq "$(cat err)" "" "--quiet"
assert_contains "$(cat f3.json)" '"timedOut":true'

# A writer that outlived the command: named by pid and argv, in the line and the facts.
corral collect --grace 1s --facts f4.json -- sh -c 'sleep 299 & echo done' >out 2>err
assert_eq "$(cat out)" "done"
line=$(grep '^corral:' err)
[[ "$line" =~ ^corral:\ the\ command\ exited\ but\ pid\ ([0-9]+)\ \(sleep\ 299\)\ held\ its\ output\ open\;\ waited\ the\ 1s\ grace,\ then\ terminated\ it$ ]] || fail "survivor line: [$line]"
pid=${BASH_REMATCH[1]}
assert_contains "$(cat f4.json)" "\"survivors\":[{\"pid\":$pid,\"argv\":[\"sleep\",\"299\"]}]"
corral collect --quiet --grace 1s -- sh -c 'sleep 298 & echo done' >out 2>err
assert_eq "$(cat err)" "" "--quiet"

# What the command left running ignores SIGTERM: SIGKILL was needed, said and in the facts; status unchanged.
# The command ends only once the leftover ignores SIGTERM (it says so through a FIFO): on a
# loaded machine the leftover could otherwise be terminated before its trap was set.
mkfifo trapped
corral run --grace 1s --facts f5.json -- sh -c 'sh -c "trap \"\" TERM; echo >trapped; sleep 297" >/dev/null & read _ <trapped; echo done' >out 2>err
assert_eq "$(cat out)" "done"
assert_eq "$(grep '^corral:' err)" "corral: SIGKILL was needed: what the command left running outlived SIGTERM and the 1s grace"
assert_contains "$(cat f5.json)" '"forced":true'
corral run --quiet --grace 1s -- sh -c 'sh -c "trap \"\" TERM; sleep 296" >/dev/null &' 2>err
assert_eq "$(cat err)" "" "--quiet"
