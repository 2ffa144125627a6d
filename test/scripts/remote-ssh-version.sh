# A remote corral of another protocol version: the call through ssh is
# refused with both version numbers and what to do (the same release on
# both machines), status 1, nothing run; a remote machine without corral
# on its PATH is named, with the --host HOST:/path form to use; and a key
# the other machine does not accept is ssh's own message and status 255;
# a --host or --via value that cannot be used is one line and status 2.
# The other release is this checkout built again with PROTOCOL_VERSION
# bumped by one (as agent-restart-newer-protocol.sh builds it).
. "$SCRIPT_LIB"
sshd_private
trap 'sshd_stop' EXIT

newer="$SCRIPT_TMP/newer"
mkdir -p "$newer"
cp -r "$CORRAL_REPO/cli" "$CORRAL_REPO/lib" "$CORRAL_REPO/package.json" "$CORRAL_REPO/tsconfig.json" "$newer/"
ln -s "$CORRAL_REPO/node_modules" "$newer/node_modules"
ln -s "$CORRAL_REPO/native" "$newer/native"
old_version=$(sed -nE 's/^export const PROTOCOL_VERSION = ([0-9]+);$/\1/p' "$newer/lib/agent/protocol/version.ts")
[[ -n "$old_version" ]] || fail "PROTOCOL_VERSION not found in lib/agent/protocol/version.ts"
new_version=$((old_version + 1))
sed -i "s/^export const PROTOCOL_VERSION = $old_version;\$/export const PROTOCOL_VERSION = $new_version;/" "$newer/lib/agent/protocol/version.ts"
(cd "$newer" && "$CORRAL_REPO/node_modules/.bin/esbuild" corral=cli/main.ts --bundle --platform=node --format=esm \
  --target=node20 --splitting --outdir=dist --entry-names='[name]' --chunk-names='chunks/[name]-[hash]' \
  --out-extension:.js=.mjs --external:@lydell/node-pty \
  "--banner:js=import{createRequire as __corralRequire}from'node:module';const require=__corralRequire(import.meta.url);" \
  --log-level=warning)
newer_remote="$SSHD_DIR/newer-corral"
printf '#!/bin/sh\nCORRAL_STATE_DIR=%s CORRAL_AGENT_IDLE=5m exec %s %s "$@"\n' "$SCRIPT_TMP/remote-state" "$(command -v node)" "$newer/dist/corral.mjs" >"$newer_remote"
chmod 755 "$newer_remote"

H="$SSH_DEST:$newer_remote"
st=0
corral pty open --host "$H" --name x -- true >open.out 2>open.err || st=$?
cat open.err >&2
assert_eq "$st" 1 "status against a remote corral of another protocol"
assert_eq "$(wc -l < open.err)" 1 "lines on stderr"
assert_contains "$(cat open.err)" "corral: the agent on $H speaks protocol $new_version and this corral speaks $old_version"
assert_contains "$(cat open.err)" "run the same corral release on both machines"
[[ ! -s open.out ]] || fail "a refused call printed: $(cat open.out)"
assert_eq "$(CORRAL_STATE_DIR="$SCRIPT_TMP/remote-state" "$newer_remote" pty list --json | jq '.sessions | length')" 0 "sessions opened despite the mismatch"

# No corral there under that name: named, with the form that gives its path.
st=0
corral pty list --host "$SSH_DEST:/nonexistent/corral" 2>missing.err || st=$?
assert_eq "$st" 125 "status when the remote corral is missing"
assert_contains "$(cat missing.err)" "has no corral on the remote PATH"
assert_contains "$(cat missing.err)" "--host $SSH_DEST:/path/to/corral"

# Authentication refused (a key the other machine does not know): ssh's own words, then ours; 255.
ssh-keygen -q -t ed25519 -N '' -f "$SCRIPT_TMP/stranger_key" </dev/null
sed "s|IdentityFile .*|IdentityFile $SCRIPT_TMP/stranger_key|" "$SSHD_DIR/ssh_config" >"$SCRIPT_TMP/stranger_config"
st=0
# ControlPath=none (ssh takes an option's first value): no shared connection, authenticated before, to lean on.
CORRAL_SSH="ssh -F $SCRIPT_TMP/stranger_config -o ControlPath=none" corral run --host "$SSH_DEST:$REMOTE_CORRAL" -- true >auth.out 2>auth.err || st=$?
assert_eq "$st" 255 "status when ssh authentication fails ($(cat auth.err))"
assert_contains "$(cat auth.err)" "Permission denied (publickey)"
assert_contains "$(cat auth.err)" "corral: could not connect to $SSH_DEST:$REMOTE_CORRAL: ssh exited with status 255"
[[ ! -s auth.out ]] || fail "a refused login printed: $(cat auth.out)"

# Where the agent is, said wrongly: one line naming what would be right, status 2, ssh never started
# (a destination starting with "-" would be an ssh option).
for bad in "--host=" "--host=-oProxyCommand=touch $SCRIPT_TMP/pwned" "--host=box:" "--via="; do
  st=0
  corral jobs "$bad" 2>bad.err || st=$?
  assert_eq "$st" 2 "status for jobs $bad"
  assert_eq "$(wc -l < bad.err)" 1 "lines on stderr for jobs $bad"
done
[[ ! -e "$SCRIPT_TMP/pwned" ]] || fail "a --host value reached ssh as an option"
st=0
corral jobs --host box --via 'sh -c true' 2>both.err || st=$?
assert_eq "$st" 2 "status for --host with --via"
assert_contains "$(cat both.err)" "--host and --via both say where the agent is; give one"
