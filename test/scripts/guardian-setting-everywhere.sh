# The config key `guardian` and $CORRAL_GUARDIAN are one setting, honoured by
# run, collect, terminal sessions and jobs alike (issue 10): `never` puts each
# on its fallback (process group, node-pty, no --tty jobs), `always` refuses
# to start anything without a guardian. The agent takes the setting from the
# command that starts it.
. "$SCRIPT_LIB"

# Whose child a pid is: the guardian's (corral-guardian) or the agent's own (node-pty).
parent_of() { ps -o comm= -p "$(ps -o ppid= -p "$1" | tr -d ' ')" | tr -d ' '; }
session_pid() { corral pty list --json | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.sessions.find((s) => s.name === process.argv[1]).pid)' "$1"; }
job_backend() { corral jobs --json | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.jobs.find((j) => j.name === process.argv[1]).backend)' "$1"; }

# The default (auto, guardian built): sessions run under the guardian.
corral pty open --name auto -- sh >/dev/null
assert_eq "$(parent_of "$(session_pid auto)")" "corral-guardian" "auto: a session runs under the guardian"
corral pty close auto >/dev/null
corral agent stop >/dev/null

# CORRAL_GUARDIAN=never: node-pty for sessions, a process group for jobs, no --tty job.
export CORRAL_GUARDIAN=never
corral pty open --name never -- sh >/dev/null
assert_eq "$(parent_of "$(session_pid never)")" "node" "never: a session runs under node-pty, not the guardian"
corral pty close never >/dev/null
corral run --bg --name pipejob -- sleep 300 >/dev/null
assert_eq "$(job_backend pipejob)" "process-group" "never: a job runs in a process group"
set +e
err=$(corral run --bg --tty -- true 2>&1 >/dev/null)
status=$?
set -e
assert_eq "$status" 125 "never: a --tty job is refused as corral's own failure"
assert_contains "$err" "--tty jobs need the guardian, and guardian: never is set"
corral reap --all >/dev/null
corral agent stop >/dev/null
unset CORRAL_GUARDIAN

# The config key says the same, for the agent it starts.
printf 'guardian: never\n' > "$SCRIPT_TMP/config.yaml"
CORRAL_CONFIG="$SCRIPT_TMP/config.yaml" corral run --bg --name cfgjob -- sleep 300 >/dev/null
assert_eq "$(job_backend cfgjob)" "process-group" "config guardian: never reaches jobs"
corral reap --all >/dev/null
corral agent stop >/dev/null

# always, with no guardian to be had: sessions are refused too (as run is).
set +e
err=$(CORRAL_GUARDIAN=always CORRAL_GUARDIAN_BIN="$SCRIPT_TMP/no-such-guardian" corral pty open --name nope -- sh 2>&1 >/dev/null)
status=$?
set -e
assert_eq "$status" 125 "always without a guardian: pty open fails"
assert_contains "$err" "guardian: always, but"
corral agent stop >/dev/null
