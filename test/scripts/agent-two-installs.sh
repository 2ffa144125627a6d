# Two installs of corral share the user's agent (a project's own beside a
# global one, of another version with the same protocol). The agent runs
# command lines only for the native client of the install it was started
# from, so each install's commands answer with that install's code: the
# other one's client hands them to its own JavaScript CLI, which speaks the
# protocol. CORRAL_CLIENT=native shows which door answered.
. "$SCRIPT_LIB"

other="$SCRIPT_TMP/other-install"
mkdir -p "$other"
cp -r "$CORRAL_REPO/dist" "$other/dist"
cp "$CORRAL_REPO/package.json" "$other/"
ln -s "$CORRAL_REPO/node_modules" "$other/node_modules"
ln -s "$CORRAL_REPO/native" "$other/native"

corral pty open --name sh -- bash --norc --noprofile >/dev/null
# This install's client is served by the agent it started.
assert_contains "$(CORRAL_CLIENT=native corral pty list)" "sh"

# The other install's client is not, and says why when told to take no other door.
set +e
CORRAL_CLIENT=native "$other/dist/corral" pty list >/dev/null 2>"$SCRIPT_TMP/err"
status=$?
set -e
assert_eq "$status" 125 "the other install's native door"
assert_contains "$(cat "$SCRIPT_TMP/err")" "the agent does not serve this command (a client of another install of corral; this agent is $(realpath "$CORRAL_REPO")'s)"

# Left to itself, it hands the command to its own JavaScript CLI, and everything works.
assert_contains "$("$other/dist/corral" pty list)" "sh"
"$other/dist/corral" pty send sh 'echo other-$((6*7))' --key Enter --wait-text 'other-42' >/dev/null
assert_contains "$(corral pty screen sh)" "other-42"
corral pty close sh >/dev/null
