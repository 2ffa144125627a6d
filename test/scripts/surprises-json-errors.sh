# A script that parses stdout: every --json command prints one JSON object on
# stdout also when it fails ({"ok": false, "error": {code, message}}), with
# its usual exit status; a command that ran and failed keeps its own report.
. "$SCRIPT_LIB"

json_fails() { # STATUS CODE corral ARGS...: the status, and one object with that code on stdout
  local want=$1 code=$2
  shift 2
  set +e
  "$@" >r.json 2>err
  local status=$?
  set -e
  assert_eq "$status" "$want" "$*: status"
  assert_eq "$(wc -l <r.json | tr -d ' ')" 1 "$*: one line"
  assert_eq "$(jq -r '.ok' r.json)" false "$*: ok"
  assert_eq "$(jq -r '.error.code' r.json)" "$code" "$*: code"
  [ -n "$(jq -r '.error.message' r.json)" ] || fail "$*: no message"
}

json_fails 127 command_not_found corral collect --json -- /nonexistent
assert_contains "$(jq -r .error.message r.json)" "/nonexistent"
json_fails 127 command_not_found corral collect --json --live -- /nonexistent
json_fails 2 bad_request corral collect --json --timeout soon -- true
json_fails 2 bad_request corral collect --json --bogus -- true
json_fails 1 unknown_session corral pty wait --json nosuch --text x
json_fails 1 unknown_session corral pty screen --json nosuch
json_fails 1 unknown_session corral pty send --json nosuch hello
json_fails 1 unknown_job corral collect --job %99 --json
json_fails 2 bad_request corral jobs --json --bogus
json_fails 2 bad_request corral pty list --json extra-argument

# Ran and failed: the report, not an error object; .ok is not false.
set +e
corral collect --json -- sh -c 'echo out; exit 3' >r.json
status=$?
set -e
assert_eq "$status" 3
assert_eq "$(jq -r '.exit.code' r.json)" 3
assert_eq "$(jq -r '.ok == false' r.json)" false
corral agent stop >/dev/null 2>&1 || true
