# The small ones of issue 15 (item 9), as a user meets them: a directory as
# the command, a newline in a path or command, a NUL byte in a request, and
# an agent out of file descriptors. Each is one clear line and its status.
. "$SCRIPT_LIB"

# expect STATUS CMD...: runs CMD, checks its status, leaves its stderr in $err.
expect() {
  local want=$1
  shift
  set +e
  "$@" >/dev/null 2>"$SCRIPT_TMP/err"
  local status=$?
  set -e
  err=$(cat "$SCRIPT_TMP/err")
  assert_eq "$status" "$want" "status of: $*"
  assert_eq "$(wc -l <"$SCRIPT_TMP/err")" 1 "one line from: $* (got: $err)"
}

# A directory is found but cannot be executed: 126 from run and from pty open alike.
expect 126 corral run -- "$SCRIPT_TMP"
assert_contains "$err" "is a directory"
expect 126 corral pty open -- "$SCRIPT_TMP"
assert_contains "$err" "is a directory"

# A newline in what the user gave is shown escaped, on the one line.
expect 127 corral run -- $'no-such\ncommand'
assert_contains "$err" 'no-such\ncommand'
expect 127 corral pty open -- $'no-such\ncommand'
assert_contains "$err" 'no-such\ncommand'
expect 2 corral run --cwd $'/no\nwhere' -- true
assert_contains "$err" '/no\nwhere'
expect 1 corral pty send $'no\nsession' hello
assert_contains "$err" 'no\nsession'

# A NUL byte cannot reach exec: bad_request, not an internal failure.
replies=$(printf '%s\n' \
  '{"op":"open","argv":["sh"],"env":{"A":"x\u0000y"}}' \
  '{"op":"open","argv":["sh"],"term":"xterm\u0000"}' \
  '{"op":"open","argv":["sh"],"cwd":"/tmp\u0000"}' | corral connect)
assert_eq "$(grep -c '"code":"bad_request"' <<<"$replies")" 3 "NUL bytes are bad requests: $replies"

# An agent out of file descriptors says so, with its limit.
corral agent stop --force >/dev/null
(ulimit -n 48 && corral agent start >/dev/null)
opened=0
while corral pty open -- sleep 300 >/dev/null 2>"$SCRIPT_TMP/err"; do
  opened=$((opened + 1))
  ((opened < 40)) || fail "40 sessions opened under a limit of 48 open files"
done
err=$(cat "$SCRIPT_TMP/err")
assert_contains "$err" "too many open files: the agent reached its limit of 48 (ulimit -n)"
corral agent stop --force >/dev/null

# `run` with no command says what `collect` says, not the parser's "Expected at least 1 argument(s)".
expect 2 corral run
assert_eq "$err" "corral: no command given; put it after --, e.g. corral run -- make test" "run with no command"
expect 2 corral run --timeout 5s
assert_eq "$err" "corral: no command given; put it after --, e.g. corral run -- make test" "run with flags and no command"
expect 2 corral collect
assert_eq "$err" "corral: no command given; put it after --, e.g. corral collect -- make test" "collect with no command"
expect 2 corral pty open --rows 10
assert_eq "$err" "corral: no command given; put it after --, e.g. corral pty open -- bash" "pty open with no command"

# An unknown flag is named as typed; a proposal only when it is a typo away, named as --help names it.
expect 2 corral run --json -- true
assert_eq "$err" "corral: unknown flag --json: corral run has none; --facts FILE writes its exit facts as JSON (see --help)" "run --json: where its JSON is"
expect 2 corral pty attach sh1 --json
assert_eq "$err" "corral: unknown flag --json (see --help)" "no far-fetched proposal"
expect 2 corral run --keepenv HOME -- true
assert_eq "$err" "corral: unknown flag --keepenv, did you mean --keep-env? (see --help)" "a typo: the flag as help names it"
expect 2 corral pty screen sh1 --jsn
assert_eq "$err" "corral: unknown flag --jsn, did you mean --json? (see --help)" "a served command: the same line"
expect 2 corral run -x -- true
assert_eq "$err" "corral: unknown flag -x (see --help)" "an unknown short flag"
# The parser's other refusals, in the same words; a value given is never repeated (it may be a secret).
expect 2 corral pty list --host
assert_eq "$err" "corral: --host needs a value (see --help)" "a flag with no value"
expect 2 corral run --cwd /tmp --cwd /secret-place -- true
assert_eq "$err" "corral: --cwd was given twice; it takes one value (see --help)" "a flag given twice"
expect 2 corral config get
assert_eq "$err" 'corral: unexpected argument "get": this command takes no arguments (see --help)' "an argument too many"

# `corral help COMMAND...` is `corral COMMAND... --help` (as git and cargo have it), status 0.
assert_eq "$(corral help pty open)" "$(corral pty open --help)" "help pty open: the help of pty open"
assert_eq "$(corral help)" "$(corral --help)" "help alone: corral's help"
expect 2 corral help no-such-command
assert_contains "$err" "no-such-command"
# An unknown command: a proposal a typo away, and the help of the group it was looked for in.
expect 2 corral pty opne
assert_eq "$err" 'corral: unknown command `opne`, did you mean `open`? (see corral pty --help)' "a command a typo away"
expect 2 corral nosuch
assert_eq "$err" 'corral: unknown command `nosuch` (see corral --help)' "no far-fetched proposal for a command"

# A missing session or command, in corral's words, with a line that works.
expect 2 corral pty screen
assert_eq "$err" "corral: no session given; name one by its id or name (corral pty list shows them)" "pty screen with no session"
expect 2 corral pty exec sh1
assert_eq "$err" "corral: no command given; put it after the session, e.g. corral pty exec sh1 -- npm test" "pty exec with no command"

# `corral version` is `corral --version` (as go and kubectl have it).
assert_eq "$(corral version)" "$(corral --version)" "version: the version"
expect 2 corral version --json
assert_eq "$err" "corral: version takes nothing after it: corral version (or corral --version) prints the version" "version with something after it: one line"
