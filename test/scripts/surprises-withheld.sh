# A CI step wrapping a tool that needs a token: corral withholds it, and says
# so in one line (names, never values) with how to pass it; --quiet and the
# config key quiet silence the line; the config key scrub sets the default;
# --explain names corral's own CORRAL_* settings as such, not as credentials.
. "$SCRIPT_LIB"

export GITHUB_TOKEN=ghp_notarealvalue NPM_TOKEN=npm_notarealvalue AWS_REGION=eu-west-1

out=$(corral collect -- sh -c 'echo "[${GITHUB_TOKEN:-}]"' 2>err)
assert_eq "$out" "[]" "the token is withheld"
line=$(grep '^corral:' err)
assert_eq "$line" "corral: withheld GITHUB_TOKEN, NPM_TOKEN from the command (credential-shaped; --keep-env NAME or --no-scrub passes them)"
! grep -q notarealvalue err || fail "a value reached stderr"
! grep -q AWS_REGION err || fail "a variable that is no credential was named"

# The same line from run, and with --json (where envDropped keeps the names too).
corral run -- true 2>err
assert_contains "$(cat err)" "corral: withheld GITHUB_TOKEN, NPM_TOKEN from the command"
corral collect --json -- true >r.json 2>err
assert_contains "$(cat err)" "corral: withheld GITHUB_TOKEN, NPM_TOKEN"
assert_contains "$(cat r.json)" '"envDropped":["GITHUB_TOKEN","NPM_TOKEN"]'

# Passing one: named no more.
out=$(corral collect --keep-env GITHUB_TOKEN -- sh -c 'echo "[$GITHUB_TOKEN]"' 2>err)
assert_eq "$out" "[ghp_notarealvalue]"
assert_eq "$(grep '^corral:' err)" "corral: withheld NPM_TOKEN from the command (credential-shaped; --keep-env NAME or --no-scrub passes it)"

# --quiet: nothing said, the facts still name them.
corral collect --quiet --json -- true >r.json 2>err
assert_eq "$(cat err)" "" "--quiet"
assert_contains "$(cat r.json)" '"envDropped":["GITHUB_TOKEN","NPM_TOKEN"]'

# Config: quiet silences, scrub: false passes them all, --scrub wins back.
printf 'quiet: true\n' >quiet.yaml
CORRAL_CONFIG=$PWD/quiet.yaml corral run -- true 2>err
assert_eq "$(cat err)" "" "config quiet: true"
printf 'scrub: false\n' >noscrub.yaml
out=$(CORRAL_CONFIG=$PWD/noscrub.yaml corral collect -- sh -c 'echo "[$GITHUB_TOKEN]"' 2>err)
assert_eq "$out" "[ghp_notarealvalue]" "config scrub: false"
assert_eq "$(cat err)" ""
out=$(CORRAL_CONFIG=$PWD/noscrub.yaml corral collect --scrub -- sh -c 'echo "[${GITHUB_TOKEN:-}]"' 2>/dev/null)
assert_eq "$out" "[]" "--scrub beats the config"
printf 'scrub: maybe\n' >bad.yaml
set +e
CORRAL_CONFIG=$PWD/bad.yaml corral run -- true 2>err
status=$?
set -e
assert_eq "$status" 2 "a bad scrub value is a usage error"
assert_contains "$(cat err)" "scrub"

# CI set changes nothing: still withheld, still said.
out=$(CI=true corral collect -- sh -c 'echo "[${GITHUB_TOKEN:-}]"' 2>err)
assert_eq "$out" "[]" "CI does not change the default"
assert_contains "$(cat err)" "corral: withheld GITHUB_TOKEN"

# --explain: corral's own settings are not credentials.
corral run --explain -- true 2>err
grep -q "not passing CORRAL_STATE_DIR (corral's own setting" err || fail "CORRAL_STATE_DIR named as corral's own: $(cat err)"
! grep -q "CORRAL_STATE_DIR (credential-shaped" err || fail "CORRAL_STATE_DIR called credential-shaped"

# pty open withholds them too, and says so (its own way to pass one: --env).
corral pty open --name env -- sh -c 'echo "[${GITHUB_TOKEN:-}]"; exec cat' >/dev/null 2>err
assert_eq "$(cat err)" "corral: withheld GITHUB_TOKEN, NPM_TOKEN from the command (credential-shaped; --env NAME=VALUE or the config key scrub: false passes them)"
wait_until 60 sh -c 'corral pty screen env | grep -qx "\[\]"'
corral pty open --quiet -- true >/dev/null 2>err
assert_eq "$(cat err)" "" "pty open --quiet"
corral agent stop --force >/dev/null 2>&1 || true
