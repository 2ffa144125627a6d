# The same named-session script twice in a row: the second open takes the
# name from the exited session of the first (which stays readable by id and
# is listed as retired), and a wait by name means the new session.
. "$SCRIPT_LIB"

run_once() {
  corral pty open --name job -- sh -c 'echo "run $1"; read line; echo "got $line"' sh "$1" >/dev/null
  corral pty wait job --text "run $1" --timeout 30s >/dev/null
  corral pty send job "hello $1" --key Enter --wait-regex "^got hello $1\$" --timeout 30s >/dev/null
  corral pty wait job --exit --timeout 30s >/dev/null
}
run_once 1
first=$(corral pty list --json | jq -r '.sessions[] | select(.name == "job") | .id')
run_once 2
listed=$(corral pty list --json)
assert_eq "$(jq '[.sessions[] | select(.name == "job")] | length' <<<"$listed")" "2"
assert_eq "$(jq -r --arg id "$first" '.sessions[] | select(.id == $id) | .retired' <<<"$listed")" "true"
assert_eq "$(jq -r '.sessions[] | select(.name == "job" and (.retired | not)) | .id' <<<"$listed" | wc -l | tr -d ' ')" "1"
# The retired one is still readable by id; the name now means the second run.
corral pty screen "$first" | grep -qx 'got hello 1' || fail "the first run's screen is readable by id"
corral pty screen job | grep -qx 'got hello 2' || fail "the name refers to the second run"
corral pty list | grep -q '\[job\]' || fail "pty list marks the retired session"

# A name held by a running session is still refused.
corral pty open --name live -- sleep 300 >/dev/null
set +e
corral pty open --name live -- sleep 300 2>err.txt
status=$?
set -e
assert_eq "$status" 1 "a running session keeps its name"
assert_contains "$(cat err.txt)" "exists"
corral pty close live --force >/dev/null
