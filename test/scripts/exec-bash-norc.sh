# pty exec in the clean shell docs/scripting.md opens, `bash --norc --noprofile`
# with its prompt in the environment: no startup file of the user's runs,
# the prompt is the one given, the user's own PROMPT_COMMAND still runs, and
# commands, statuses, cd and the nonce behave as in any hooked bash. Then
# fish's clean shell, `fish --no-config`, the same way.
. "$SCRIPT_LIB"
home="$SCRIPT_TMP/home"
mkdir -p "$home"
printf 'export FROM_RC=yes\n' > "$home/.bashrc"
s=$(corral pty open --wait-ready --timeout 60s --cwd "$SCRIPT_TMP" --env "HOME=$home" --env 'PS1=$ ' --env 'PROMPT_COMMAND=PC_RAN=yes' -- bash --norc --noprofile)

out=$(corral pty exec "$s" --timeout 60s -- 'echo "rc:[$FROM_RC] prompt command:[$PC_RAN]"')
assert_eq "$out" "rc:[] prompt command:[yes]" "--norc: no startup file ran; the user's PROMPT_COMMAND did"
assert_eq "$(corral pty screen "$s" | grep -c '^\$ ')" 1 "the prompt is the one given in the environment"

st=0; corral pty exec "$s" -- 'cd /; (exit 3)' || st=$?
assert_eq "$st" 3 "a status comes back"
json=$(corral pty exec "$s" --json -- pwd)
assert_eq "$(jq -c '[.output, .status, .cwd]' <<<"$json")" '["/\n",0,"/"]' "cd carried over and is reported"
out=$(corral pty exec "$s" -- "sh -c 'env | grep -cE corral=[0-9a-f]{32} || true'")
assert_eq "$out" "0" "a child's environment holds no nonce"
assert_eq "$(corral pty list --json | jq -c '.sessions[0].argv')" '["bash","--norc","--noprofile"]' "the session's argv is the one given"
corral pty close "$s" >/dev/null

command -v fish >/dev/null || exit 0 # fish's part needs fish (.ci/run installs it)
# As after fish's first run: a home without it has fish build completions from every man page in the background.
mkdir -p "$home/.config/fish" "$home/.local/share/fish/generated_completions"
printf 'set -gx FROM_RC yes\n' > "$home/.config/fish/config.fish"
f=$(corral pty open --wait-ready --timeout 60s --cwd "$SCRIPT_TMP" --env "HOME=$home" -- fish --no-config)
out=$(corral pty exec "$f" --timeout 60s -- 'echo "rc:[$FROM_RC]"')
assert_eq "$out" "rc:[]" "fish --no-config: config.fish did not run, and pty exec works"
st=0; corral pty exec "$f" -- 'false' || st=$?
assert_eq "$st" 1 "fish --no-config: a status comes back"
corral pty close "$f" >/dev/null
