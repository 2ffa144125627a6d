# Upgrading corral to a version whose agent protocol differs: the running
# agent holds vim, bash and a job writing a known stream; the newer corral
# meets the version mismatch, is told to `agent restart`, and its agent
# re-adopts all three without losing anything (issue 11).
# The newer corral is this checkout built a second time with esbuild, its
# PROTOCOL_VERSION bumped by one (nothing in the product reads a test hook).
. "$SCRIPT_LIB"
tmux_private
# On a failure, the agents' log says what each did (kept, re-adopted, lost).
trap 'st=$?; tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true; [[ $st == 0 ]] || tail -40 "$CORRAL_STATE_DIR/agent.log" >&2' EXIT

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
newer_corral() { node "$newer/dist/corral.mjs" "$@"; }

# What the old corral's agent holds.
seq 1 300 | sed 's/^/line /' > notes.txt
vim_argv=(vim -u NONE -i NONE -n notes.txt)
tmx new-session -d -x 80 -y 24 -- env LESS= "${vim_argv[@]}"
corral pty open --name vi --cols 80 --rows 24 -- env LESS= "${vim_argv[@]}" >/dev/null
corral pty wait vi --text 'notes.txt' >/dev/null
for k in G k k d d; do tmx send-keys "$k"; corral pty send vi --key "$k" >/dev/null; done
corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty send sh 'PS1="$ "; X=42; echo set-$X' --key Enter --wait-text 'set-42' >/dev/null
# The job waits on a FIFO this script opens when it is time (no sleep loop in the job).
mkfifo go
corral run --bg --name gen --spill gen.spill -- sh -c 'seq 1 2000; read _ < go; seq 2001 5000' >/dev/null
first=$(seq 1 2000 | wc -c)
job_bytes() { corral jobs --json | jq '.jobs[0].bytes'; }
wait_until 30 output_is "$first" job_bytes
old_agent=$(corral agent status --json | jq .pid)

# The newer corral meets the old agent: one line, naming both versions and the way out.
set +e
newer_corral pty list 2>mismatch.err
status=$?
set -e
assert_eq "$status" 1 "a version mismatch exits 1"
assert_contains "$(cat mismatch.err)" "speaks protocol $old_version and this corral speaks $new_version; restart it with: corral agent restart"

restarted=$(newer_corral agent restart)
assert_contains "$restarted" "(replaced agent $old_agent); re-adopted sessions 1 (vi), 2 (sh) and job %1 (gen)"
assert_eq "$(newer_corral agent status --json | jq .protocolVersion)" "$new_version"
timeout 60 sh -c ': > go' || fail "the job never opened its gate"

# vim: the same screen as tmux after a redraw.
tmx send-keys C-l
newer_corral pty send vi --key C-l >/dev/null
same_screen() { [[ "$(newer_corral pty screen vi)" == "$(tmx capture-pane -p)" ]]; }
wait_until 30 same_screen
# bash: its state.
newer_corral pty send sh 'echo again-$X' --key Enter --wait-text 'again-42' >/dev/null
# The job: same id; following from the old agent's offset gives the rest; the spill is the stream.
assert_eq "$(newer_corral collect --job %1 --from "$first" --follow | sha256sum)" "$(seq 2001 5000 | sha256sum)"
assert_eq "$(sha256sum < gen.spill)" "$(seq 1 5000 | sha256sum)" "the spill is the stream"
assert_eq "$(newer_corral jobs --json | jq -r '.jobs[0].name + " " + .jobs[0].state + " " + (.jobs[0].status|tostring)')" "gen done 0"

newer_corral reap --all >/dev/null
newer_corral agent stop >/dev/null
