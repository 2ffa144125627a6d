# A CI author keeps the first and last lines of a noisy step, not bytes cut
# mid-line, and reads the counts from the JSON facts.
. "$SCRIPT_LIB"

out=$(corral collect --head-lines 3 --tail-lines 2 -- seq 1 1000)
expected=$'1\n2\n3\n[corral: 995 lines, 3878 bytes elided (of 1000 lines, 3893 bytes; head cut by --head-lines, tail by --tail-lines); not kept]\n999\n1000'
assert_eq "$out" "$expected" "head and tail lines with the marker between"

# Byte limits alone: the tail still starts on a whole line.
tail_first=$(corral collect --head-bytes 0 --max-bytes 100 -- seq 1 100000 | sed -n 2p)
[[ "$tail_first" =~ ^[0-9]+$ ]] || fail "tail starts mid-line: [$tail_first]"
assert_eq "$(corral collect --head-bytes 0 --max-bytes 100 -- seq 1 100000 | tail -n 1)" 100000

# The JSON facts count lines as well as bytes.
corral collect --json --tail-lines 5 --head-lines 0 -- seq 1 50 >facts.json
lines=$(node -e 'const r = JSON.parse(require("fs").readFileSync("facts.json", "utf8")); console.log(r.stdout.lines, r.stdout.elidedLines, r.stdout.cutBy.tail)')
assert_eq "$lines" "50 45 lines"

set +e
corral collect --tail-lines many -- true 2>err.txt
status=$?
set -e
assert_eq "$status" 2 "a bad line count is a usage error"
assert_contains "$(cat err.txt)" "--tail-lines"
