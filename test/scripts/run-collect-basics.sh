# The harness itself, and the contract a script relies on most: exit statuses
# pass through, a timeout kills the whole tree, collect keeps head and tail.
. "$SCRIPT_LIB"

corral run -- true
set +e
corral run -- sh -c 'exit 7'
status=$?
set -e
assert_eq "$status" 7 "run passes the child's exit status through"

set +e
corral run --timeout 1s -- sh -c 'sleep 300 & sleep 300 & wait'
status=$?
set -e
assert_eq "$status" 124 "a timeout exits 124"

out=$(corral collect --head-bytes 64 --max-bytes 64 -- seq 1 100000 2>/dev/null)
assert_contains "$out" "1"
assert_contains "$out" "100000"

# A relative --cwd is the caller's directory's, in the foreground and as a job
# (a job starts in the agent, whose own directory is another: before, the agent
# resolved it and refused "--cwd sub: no such directory").
mkdir -p sub
assert_eq "$(corral run --cwd sub -- pwd)" "$PWD/sub" "run --cwd sub"
job=$(cd / && corral agent start >/dev/null && cd - >/dev/null && corral run --bg --cwd sub -- pwd)
assert_eq "$(corral collect --job "$job" --follow 2>/dev/null)" "$PWD/sub" "run --bg --cwd sub"
corral agent stop --force >/dev/null
