# The environment of a command run on another machine: built there, from
# that machine's own environment, by the same rules as a local run. Its
# credential-shaped variables are withheld and named here on stderr;
# --keep-env, --no-scrub, --clear-env and --quiet work as they do locally;
# --env NAME=VALUE is the one thing of this machine's that travels. This
# side's own secrets never reach the other machine. A relative --cwd or
# --spill of a job there is the other side's, from its home.
. "$SCRIPT_LIB"
sshd_private
trap 'sshd_stop' EXIT
# The other machine's environment: a credential-shaped variable and a plain one.
far="$SSHD_DIR/far-corral"
# (Its login directory stands in for the remote home.)
mkdir -p "$SCRIPT_TMP/far-home/sub"
printf '#!/bin/sh\ncd %s || exit 1\nFAR_API_TOKEN=far-secret-value FAR_PLAIN=far-plain exec %s "$@"\n' "$SCRIPT_TMP/far-home" "$REMOTE_CORRAL" >"$far"
chmod 755 "$far"
H="$SSH_DEST:$far"
# A name for it in the config file (hosts:), used below as --host far and $CORRAL_HOST.
printf 'hosts:\n  far: %s\n' "$H" >"$SCRIPT_TMP/config.yaml"
export CORRAL_CONFIG="$SCRIPT_TMP/config.yaml"
# This machine's: neither travels.
export HERE_API_TOKEN=here-secret-value HERE_PLAIN=here-plain

names() { sed -n 's/=.*//p' "$1" | grep -v '^CORRAL_' | sort | paste -sd, -; }

# By default: the far side's variables, its credential withheld and named here; nothing of ours.
corral run --host "$H" -- env >env.out 2>env.err
assert_contains "$(cat env.out)" "FAR_PLAIN=far-plain"
grep -q 'FAR_API_TOKEN\|HERE_' env.out && fail "passed what it should not: $(grep 'FAR_API_TOKEN\|HERE_' env.out)"
assert_eq "$(cat env.err)" "corral: withheld FAR_API_TOKEN from the command (credential-shaped; --keep-env NAME or --no-scrub passes it)"
# Consecutive calls share one ssh connection: the master that served the first serves the last.
master_pid() {
  local dir
  for dir in "$CORRAL_STATE_DIR/ssh" "/tmp/corral-ssh-$(id -u)"; do
    ssh -F "$SSHD_DIR/ssh_config" -o ControlPath="$dir/%C" -O check "$SSH_DEST" 2>&1 | sed -n 's/^Master running (pid=\([0-9]*\)).*/\1/p'
  done | head -1
}
first_master=$(master_pid)
[[ -n "$first_master" ]] || fail "no shared ssh connection after the first call"
# --quiet: the same environment, nothing said.
corral run --host far --quiet -- env >/dev/null 2>quiet.err
[[ ! -s quiet.err ]] || fail "--quiet still said: $(cat quiet.err)"

# --keep-env and --no-scrub pass it, as locally; then nothing is withheld.
corral run --host far --keep-env 'FAR_*' -- env >keep.out 2>keep.err
assert_contains "$(cat keep.out)" "FAR_API_TOKEN=far-secret-value"
[[ ! -s keep.err ]] || fail "withheld with --keep-env: $(cat keep.err)"
assert_contains "$(corral run --host "$H" --no-scrub -- env 2>/dev/null)" "FAR_API_TOKEN=far-secret-value"

# --clear-env: only what was kept and set; --env carries a value from here.
corral run --host "$H" --clear-env --keep-env FAR_PLAIN --env FROM_HERE="$HERE_PLAIN" --explain -- env >clear.out 2>clear.err
assert_eq "$(names clear.out)" "FAR_PLAIN,FROM_HERE" "variables under --clear-env --keep-env --env"
assert_contains "$(cat clear.out)" "FROM_HERE=here-plain"
assert_contains "$(cat clear.err)" "corral: explain: env: built on $H from its environment and config"
assert_contains "$(cat clear.err)" "corral: explain: env: --clear-env left out"

# The same rules for collect (its JSON names what was withheld there), a job, and a session.
CORRAL_HOST=far corral collect --json -- env >collect.json 2>collect.err
assert_eq "$(jq -c .envDropped collect.json)" '["FAR_API_TOKEN"]' "collect --host --json envDropped"
assert_contains "$(cat collect.err)" "corral: withheld FAR_API_TOKEN"
corral run --bg --host "$H" --name envjob --keep-env FAR_API_TOKEN --cwd sub --spill job.log -- sh -c 'env; echo "dir $PWD"' >/dev/null 2>bg.err
[[ ! -s bg.err ]] || fail "run --bg --host --keep-env said: $(cat bg.err)"
assert_contains "$(corral collect --host "$H" --job envjob --follow)" "FAR_API_TOKEN=far-secret-value"
# A relative --cwd and --spill are the other side's, from its home (not from this script's directory).
assert_contains "$(cat "$SCRIPT_TMP/far-home/job.log")" "dir $SCRIPT_TMP/far-home/sub"
[[ ! -e job.log ]] || fail "the remote job's spill was written here"
corral pty open --host "$H" --name envsh -- sh >/dev/null 2>open.err
assert_contains "$(cat open.err)" "corral: withheld FAR_API_TOKEN from the command"
corral pty close --host "$H" envsh --force >/dev/null

# The question behind the line, as a script may ask it through connect: names and a count, never values.
echo '{"op":"remote-env-plan","request":{"op":"job-start","env":{"FAR_API_TOKEN":"mine"}},"ref":1}' | corral connect --host "$H" >plan.json
assert_eq "$(jq -c '[.ref, .ok, (.withheld | map(select(startswith("CORRAL_") | not))), .cleared]' plan.json)" '[1,true,[],0]' "the plan when --env sets the name"
echo '{"op":"remote-env-plan","request":{"op":"job-start","env":{}},"ref":2}' | corral connect --host "$H" >plan.json
assert_eq "$(jq -c '[.ok, (.withheld | map(select(startswith("CORRAL_") | not)))]' plan.json)" '[true,["FAR_API_TOKEN"]]' "the plan"
if grep -q far-secret-value plan.json; then fail "the plan carried a value: $(cat plan.json)"; fi

assert_eq "$(master_pid)" "$first_master" "the shared connection's master after a dozen calls"

# Nothing of this machine's secret reached the other one: not its agent's state, not a job's output.
if grep -rqs here-secret-value "$SCRIPT_TMP/remote-state"; then fail "this machine's secret is in the remote state dir"; fi
