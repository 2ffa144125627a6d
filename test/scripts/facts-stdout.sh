# --facts as scripts use it: `-` puts the facts on stdout as the last line
# (refused for `run`, whose stdout is the command's); a facts file that is also
# where stdout is appended keeps what was there; '' is a usage error.
. "$SCRIPT_LIB"

out=$(corral collect --facts - -- sh -c 'echo built; exit 0')
assert_eq "$(printf '%s\n' "$out" | head -n 1)" "built"
assert_contains "$(printf '%s\n' "$out" | tail -n 1)" '"code":0'
[[ ! -e ./- ]] || fail "a file named - was created"

set +e
corral run --facts - -- true 2>err.txt
status=$?
set -e
assert_eq "$status" 2 "run --facts - is a usage error"
assert_contains "$(cat err.txt)" "stdout belongs to the command"

set +e
corral run --facts '' -- true 2>/dev/null
status=$?
set -e
assert_eq "$status" 2 "--facts '' is a usage error"

echo "kept line" > build.log
corral collect --facts build.log -- echo "step output" >> build.log
assert_eq "$(head -n 2 build.log)" "kept line
step output" "earlier content and the output stay"
assert_contains "$(tail -n 1 build.log)" '"outputComplete":true'
