# Several patterns, mixed kinds: the first that holds wins and the reply
# names it (kind, index, pattern), with the match and its groups.
. "$SCRIPT_LIB"

corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty wait sh --ready --timeout 30s >/dev/null
reply=$(corral pty send sh 'echo "result: $((20 + 22)) ok"' --key Enter --json \
  --wait-text 'this never appears' --wait-regex 'never either' --wait-regex '^result: ([0-9]+) (?P<word>[a-z]+)$' --timeout 30s)
assert_eq "$(jq -r .wait.fired <<<"$reply")" "regex"
assert_eq "$(jq -r .wait.match.index <<<"$reply")" "1" "the second regex fired"
assert_eq "$(jq -r .wait.match.groups[0] <<<"$reply")" "42"
assert_eq "$(jq -r .wait.match.named.word <<<"$reply")" "ok"

# pty wait: the second --text fires, and plain output names the kind.
at=$(corral pty send sh 'echo beta' --key Enter --json | jq .at)
fired=$(corral pty wait sh --after "$at" --text alpha --regex '^beta$' --timeout 30s)
assert_eq "$fired" "regex"
reply=$(corral pty wait sh --after "$at" --text alpha --text beta --timeout 30s --json)
assert_eq "$(jq -r '.match | "\(.kind) \(.index) \(.pattern)"' <<<"$reply")" "text 1 beta"

# A pattern a backtracking engine takes minutes over is answered within its timeout.
corral pty send sh "printf 'a%.0s' \$(seq 40); echo" --key Enter --wait-ready --timeout 30s >/dev/null
set +e
corral pty wait sh --after 0 --regex '(a+)+$b' --timeout 2s 2>/dev/null
status=$?
set -e
assert_eq "$status" 124 "no match: the timeout, not a frozen agent"

# An exited session ends a pending wait at once (status 1), unless --exit was asked.
corral pty send sh 'exit 3' --key Enter >/dev/null
set +e
corral pty wait sh --after "$at" --text 'never printed' --timeout 60s 2>err.txt
status=$?
set -e
assert_eq "$status" 1 "a wait on an exited session ends with status 1"
assert_contains "$(cat err.txt)" "exited (exit 3)"
assert_eq "$(corral pty wait sh --text 'never printed' --exit --timeout 60s)" "exit"
# Output written before the exit still counts.
assert_eq "$(corral pty wait sh --after "$at" --text beta --timeout 5s)" "text"
