# --facts and the scrubbed-variables note on the job paths, as a CI script
# would use them: run --tty writes the facts when the command ends; run --bg
# refuses --facts (it returns at once) and collect --job --follow --facts is
# the way to get a background job's facts; a failing run --tty / collect --tty
# names the variables it withholds (names only), collect --tty --json
# carries them as envDropped.
. "$SCRIPT_LIB"
export GITHUB_TOKEN="ghp_notforchildren" AWS_REGION="eu-west-1"

# A terminal program's facts, in a file.
set +e
corral run --tty --facts tty.json -- sh -c 'exit 4' >/dev/null 2>note.txt
status=$?
set -e
assert_eq "$status" 4
assert_eq "$(jq -r '"\(.code) \(.signal) \(.timedOut)"' tty.json)" "4 null false"
assert_contains "$(cat note.txt)" "GITHUB_TOKEN" "run --tty names what it did not pass"
assert_contains "$(cat note.txt)" "--keep-env NAME or --no-scrub passes it"
if grep -q -e ghp_notforchildren -e AWS_REGION note.txt; then fail "a value, or a name that was passed, is in the note"; fi

# --bg returns before the job ends: --facts is refused, and nothing starts.
set +e
corral run --bg --facts bg.json -- true 2>refused.txt
status=$?
set -e
assert_eq "$status" 2 "usage error"
assert_contains "$(cat refused.txt)" "collect --job %N --follow --facts FILE"
assert_eq "$(corral jobs --json | jq '.jobs | length')" "0"

# The background way: start, then follow to the end with --facts.
job=$(corral run --bg -- sh -c 'echo built; exit 3')
set +e
out=$(corral collect --job "$job" --follow --facts -)
status=$?
set -e
assert_eq "$status" 3
assert_eq "$(head -n 1 <<<"$out")" "built"
assert_eq "$(tail -n 1 <<<"$out" | jq -r .code)" "3" "the facts are the last line"

# collect --tty: the note on stderr, or the names in --json.
set +e
corral collect --tty -- sh -c 'exit 2' >/dev/null 2>note.txt
status=$?
report=$(corral collect --tty --json -- sh -c 'exit 2')
set -e
assert_eq "$status" 2
assert_contains "$(cat note.txt)" "GITHUB_TOKEN"
assert_eq "$(jq -r '.envDropped | index("GITHUB_TOKEN") != null' <<<"$report")" "true"
assert_eq "$(jq -r '.envDropped | index("AWS_REGION")' <<<"$report")" "null"
assert_eq "$(jq -r '.exit.code' <<<"$report")" "2"

corral reap --json | jq -e --arg j "$job" '.jobs | map(.id) == [$j]' >/dev/null || fail "reap retires the one finished job"
corral agent stop >/dev/null
