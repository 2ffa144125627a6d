# A user who turned the guardian off (CORRAL_GUARDIAN=never, or guardian: never
# in the config file) asks probe what runs: it must say the guardian is not
# used, that terminals run on node-pty, list what is lost, exit 3 (degraded),
# and name the setting that turns it back on.
. "$SCRIPT_LIB"

set +e
out=$(CORRAL_GUARDIAN=never corral probe)
status=$?
set -e
assert_eq "$status" 3 "probe under CORRAL_GUARDIAN=never exits 3"
assert_contains "$out" "built, not used"
assert_contains "$out" "why: turned off: CORRAL_GUARDIAN=never"
assert_contains "$out" "pty backend   node-pty"
assert_contains "$out" "  tty-jobs "
assert_contains "$out" "fix: unset CORRAL_GUARDIAN"

# The same from the config file, in JSON.
mkdir -p "$SCRIPT_TMP/conf"
printf 'guardian: never\n' > "$SCRIPT_TMP/conf/corral.yaml"
set +e
json=$(CORRAL_CONFIG="$SCRIPT_TMP/conf/corral.yaml" corral probe --json)
status=$?
set -e
assert_eq "$status" 3 "probe with guardian: never in the config exits 3"
facts=$(printf '%s' "$json" | jq -r '[.status, .guardian.turnedOff, .guardian.usable, .pty.backend, .fix] | @tsv')
assert_eq "$facts" "$(printf 'degraded\ttrue\tfalse\tnode-pty\tremove guardian: never from %s' "$SCRIPT_TMP/conf/corral.yaml")"

# And what probe says matches what runs: a session really uses node-pty.
# (Under the guardian the shell's parent is corral-guardian; under node-pty, the agent.)
id=$(CORRAL_GUARDIAN=never corral pty open -- sh)
pid=$(corral pty list --json | jq -r '.sessions[0].pid')
parent=$(ps -o ppid= -p "$pid" | tr -d ' ')
parent_name=$(cat "/proc/$parent/comm")
[ "$parent_name" != "corral-guardian" ] || fail "a session opened under never runs under the guardian"
corral pty close "$id" >/dev/null
corral agent stop >/dev/null

# Without the setting, the guardian is in use again (status 0).
corral probe >/dev/null
