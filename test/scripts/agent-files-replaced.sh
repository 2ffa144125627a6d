# corral is upgraded (or rebuilt) while its agent runs and holds a session:
# every file of the install is replaced by a newer build's, whose code
# chunks have other names. The old agent loads a command's code when it
# first serves it, so it used to fail every command line the native client
# asked of it (a chunk the new files no longer have), one stack trace in
# its log a call. Now it serves none once its files are replaced: the
# client hands them to the new JavaScript CLI, every command works, the
# log stays clean, `agent status` says so, and `agent restart` brings up the
# new build with the session kept.
. "$SCRIPT_LIB"

# The user's install: a copy of the built package.
pkg="$SCRIPT_TMP/pkg"
mkdir -p "$pkg"
cp -r "$CORRAL_REPO/dist" "$pkg/dist"
cp "$CORRAL_REPO/package.json" "$pkg/"
ln -s "$CORRAL_REPO/node_modules" "$pkg/node_modules"
ln -s "$CORRAL_REPO/native" "$pkg/native"
c() { "$pkg/dist/corral" "$@"; }

c pty open --name sh -- bash --norc --noprofile >/dev/null
c pty send sh 'echo before-$((6*7))' --key Enter --wait-text 'before-42' >/dev/null

# The upgrade: a newer build (here the same code, its chunks renamed as a
# build with other contents names them) replaces every file.
newer="$SCRIPT_TMP/newer"
cp -r "$CORRAL_REPO/dist" "$newer"
mapfile -t referring < <(grep -rlE -- '[a-z0-9-]+-[A-Z0-9]{8}\.mjs' "$newer")
perl -pi -e 's/\b([a-z0-9-]+-[A-Z0-9]{8}\.mjs)\b/v2-$1/g' "${referring[@]}"
for chunk in "$newer"/chunks/*.mjs; do mv "$chunk" "$newer/chunks/v2-$(basename "$chunk")"; done
rm -rf "$pkg/dist"
mv "$newer" "$pkg/dist"

# The old agent holds the session, and every command still answers.
c pty send sh 'echo after-$((6*7))' --key Enter --wait-text 'after-42' >/dev/null || fail "pty send after the upgrade"
assert_contains "$(c pty list)" "sh"
assert_contains "$(c pty screen sh)" "after-42"
assert_contains "$(c jobs 2>&1; echo "status $?")" "status 0"
assert_eq "$(c --version)" "$(node "$pkg/dist/corral.cjs" --version)" "--version is the new files' (the old agent answered it)"
# What the old agent had not loaded yet works too: a new session, exec, a job, its output, a recording.
c pty open --name sh2 --record "$SCRIPT_TMP/sh2.cast" -- bash -i >/dev/null
assert_eq "$(c pty exec sh2 -- 'echo exec-$((6*7))' 2>&1)" "exec-42" "pty exec on the old agent"
c run --bg --name gen -- seq 1 5 >/dev/null
c jobs wait gen >/dev/null
assert_eq "$(c collect --job gen)" "$(seq 1 5)" "a job's output from the old agent"
c pty wait sh2 --ready >/dev/null
c pty close sh2 >/dev/null
assert_contains "$(head -c 200 "$SCRIPT_TMP/sh2.cast")" '"version":2'
if grep -q "internal error" "$CORRAL_STATE_DIR/agent.log"; then
  fail "the old agent failed a command: $(grep "internal error" "$CORRAL_STATE_DIR/agent.log" | head -3)"
fi

# agent status says what happened and what to do.
assert_contains "$(c agent status)" "files replaced: this agent was started from files an upgrade or a rebuild has replaced since; corral agent restart"
assert_eq "$(c agent status --json | jq -c .filesReplaced)" "true" "agent status --json: filesReplaced"
# So does probe, the command a user runs to see what corral can do here.
assert_contains "$(c probe)" "an agent answers; it was started from files an upgrade or a rebuild has replaced since"
assert_eq "$(c probe --json | jq -c .agent.filesReplaced)" "true" "probe --json: agent.filesReplaced"

# agent restart brings up the new files' agent; the session lives on.
c agent restart >/dev/null
assert_eq "$(c agent status --json | jq -c .filesReplaced)" "false" "after agent restart"
assert_eq "$(c probe --json | jq -c .agent.filesReplaced)" "false" "probe after agent restart"
assert_contains "$(c pty screen sh)" "after-42"
c pty send sh 'echo again-$((6*7))' --key Enter --wait-text 'again-42' >/dev/null
c pty close sh >/dev/null
