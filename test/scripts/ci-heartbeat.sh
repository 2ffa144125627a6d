# A quiet step under a CI watchdog: --heartbeat proves it is alive; with
# --live no heartbeat is printed while output keeps coming.
. "$SCRIPT_LIB"

corral collect --heartbeat 1s -- sh -c 'echo compiling; sleep 3' >out.txt 2>err.txt
beats=$(grep -c '^corral: heartbeat: ' err.txt || true)
((beats >= 2)) || fail "expected about three heartbeats, got $beats: $(cat err.txt)"
assert_contains "$(head -n 1 err.txt)" "bytes, 1 line so far; last line: compiling"
assert_eq "$(cat out.txt)" "compiling"

# Before any output the line says so, rather than quoting an empty last line.
corral collect --heartbeat 1s -- sh -c 'sleep 1.5' 2>silent.txt
assert_contains "$(head -n 1 silent.txt)" "0 bytes, 0 lines so far; no output yet"

# Under CI the default is every 5 minutes: nothing in a short step.
CI=true corral collect -- sh -c 'sleep 1' 2>ci.txt
assert_eq "$(cat ci.txt)" ""

# --live: output flowing the whole time, so no heartbeat.
corral collect --live --heartbeat 1s --max-bytes 1k --head-bytes 1k -- \
  sh -c 'end=$(($(date +%s) + 3)); while [ "$(date +%s)" -lt "$end" ]; do echo tick; done' >/dev/null 2>live.txt
assert_eq "$(grep -c '^corral: heartbeat: ' live.txt || true)" 0
