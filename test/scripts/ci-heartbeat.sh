# A quiet step under a CI watchdog: --heartbeat proves it is alive, before
# and after its first output. Each quiet step waits for the heartbeats it
# expects (a condition, not a clock), so a slow machine cannot fail it; that
# --live prints none while output flows is measured, not asserted
# (test/bench/heartbeat-live.bench.ts).
. "$SCRIPT_LIB"

beats_in() { grep -c '^corral: heartbeat: ' "$1" || true; }

# The step stays quiet until two heartbeats are in its log, however slow the machine.
corral collect --heartbeat 1s -- sh -c 'echo compiling; until [ "$(grep -c "^corral: heartbeat: " err.txt)" -ge 2 ]; do sleep 0.1; done' >out.txt 2>err.txt
beats=$(beats_in err.txt)
((beats >= 2)) || fail "expected two heartbeats or more, got $beats: $(cat err.txt)"
assert_contains "$(head -n 1 err.txt)" "bytes, 1 line so far; last line: compiling"
assert_eq "$(cat out.txt)" "compiling"

# Before any output the line says so, rather than quoting an empty last line.
corral collect --heartbeat 1s -- sh -c 'until grep -q "^corral: heartbeat: " silent.txt; do sleep 0.1; done' 2>silent.txt
assert_contains "$(head -n 1 silent.txt)" "0 bytes, 0 lines so far; no output yet"

# Under CI the default is every 5 minutes, which `config` shows as "auto".
assert_contains "$(CI=true corral config --json)" '"heartbeat":"auto"'
