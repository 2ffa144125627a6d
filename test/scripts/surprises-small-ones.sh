# The small surprises, each as a script would meet it: a zero size, resizing
# an exited session, the heartbeat's line count and its plural, bytes that
# are not UTF-8 under --json, pty list's quoting, bare corral, a look at a
# session that cannot exist, the process that held collect's pipe.
. "$SCRIPT_LIB"

status_of() { set +e; "$@" >/dev/null 2>err; echo $?; set -e; }

# A zero size is a usage error in both spellings.
assert_eq "$(status_of corral pty resize any 0 0)" 2 "pty resize ID 0 0"
assert_contains "$(cat err)" "COLS must be at least 1"
assert_eq "$(status_of corral pty resize any --cols 0 --rows 5)" 2 "pty resize --cols 0"
assert_contains "$(cat err)" "--cols must be at least 1"

# No agent running: a session cannot exist, and none is started to say so.
assert_eq "$(status_of corral pty screen nosuch)" 1 "pty screen nosuch"
assert_contains "$(cat err)" 'no session "nosuch"'
[ ! -e "$CORRAL_STATE_DIR/agent.sock" ] || fail "pty screen started an agent"
! corral agent status >/dev/null 2>&1 || fail "an agent is running after pty screen nosuch"

# Resizing an exited session fails as sending to it does.
corral pty open --name gone -- sh -c 'exit 0' >/dev/null
wait_until 60 output_is "exit 0" sh -c "corral pty list | awk '\$2 == \"gone\" {print \$5, \$6}'"
assert_eq "$(status_of corral pty send gone x)" 1 "pty send to an exited session"
assert_eq "$(status_of corral pty resize gone 100 30)" 1 "pty resize of an exited session"
assert_contains "$(cat err)" "has exited"

# pty list quotes argv as reap does.
corral pty open --name quoted -- sh -c 'echo ready; read x' 'arg with spaces' >/dev/null
assert_contains "$(corral pty list)" "sh -c 'echo ready; read x' 'arg with spaces'"
corral pty close quoted >/dev/null
corral agent stop >/dev/null 2>&1 || true

# The heartbeat counts lines with --spill too, and says "1 line".
corral collect --heartbeat 1s --spill s.log -- sh -c 'echo one; while [ ! -e go ]; do sleep 0.05; done' >/dev/null 2>hb.err &
pid=$!
wait_until 60 grep -qs "1 line so far" hb.err
touch go
wait "$pid"
assert_contains "$(grep -m1 "1 line so far" hb.err)" "4 bytes, 1 line so far; last line: one"
rm -f go
# A file of its own: the background job's redirection may come after the wait's first look,
# which would find the first run's heartbeat in a shared file.
corral collect --live --heartbeat 1s -- sh -c 'echo one; while [ ! -e go ]; do sleep 0.05; done' >/dev/null 2>hb-live.err &
pid=$!
wait_until 60 grep -qs "1 line so far" hb-live.err
touch go
wait "$pid"
assert_contains "$(grep -m1 "1 line so far" hb-live.err)" ", 1 line so far"
assert_contains "$(cat hb-live.err)" "[corral: stdout: 4 bytes, 1 line]"

# --json with bytes that are not UTF-8 says how many were replaced; a real U+FFFD is text.
corral collect --json -- printf 'ok \377\376 and \357\277\275\n' >r.json
assert_eq "$(jq -r .stdout.invalidUtf8 r.json)" 2 "two bytes not UTF-8"
corral collect --json -- printf 'plain\n' >r.json
assert_eq "$(jq -r .stdout.invalidUtf8 r.json)" 0

# Bare corral: help on stderr, nothing on stdout, a usage error.
set +e
corral >out 2>err
status=$?
set -e
assert_eq "$status" 2 "bare corral"
assert_eq "$(wc -c <out | tr -d ' ')" 0 "nothing on stdout"
assert_contains "$(cat err)" "pty"
corral --help >out
assert_contains "$(cat out)" "pty" "corral --help still prints on stdout, status 0"
