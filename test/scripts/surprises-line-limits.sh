# Line limits mean what head -n and tail -n mean: --tail-lines alone keeps no
# head (and --head-lines alone no tail); stdout holds only the lines, the
# elision note goes to stderr. Both given: head, marker, tail, as before.
. "$SCRIPT_LIB"

assert_eq "$(corral collect --tail-lines 3 -- seq 1 100000 2>err | wc -l | tr -d ' ')" 3 "tail -n 3"
assert_eq "$(corral collect --tail-lines 3 -- seq 1 100000 2>err)" $'99998\n99999\n100000'
assert_contains "$(cat err)" "corral: stdout: the last 3 of 100000 lines shown (--tail-lines alone keeps no head); 99997 lines"
assert_eq "$(corral collect --head-lines 2 -- seq 1 100000 2>err)" $'1\n2' "head -n 2"
assert_contains "$(cat err)" "elided"

# Short enough: no note at all.
assert_eq "$(corral collect --tail-lines 3 -- seq 1 2 2>err)" $'1\n2'
assert_eq "$(cat err)" ""

# Both: the marker between them, on stdout.
out=$(corral collect --head-lines 1 --tail-lines 1 -- seq 1 10)
assert_eq "$(printf '%s\n' "$out" | sed -n 1p)" "1"
assert_contains "$(printf '%s\n' "$out" | sed -n 2p)" "[corral: 8 lines"
assert_eq "$(printf '%s\n' "$out" | sed -n 3p)" "10"

# --tail-lines with --head-bytes: a head was asked for, so it is kept.
out=$(corral collect --head-bytes 2 --tail-lines 1 -- seq 1 10)
assert_eq "$(printf '%s\n' "$out" | sed -n 1p)" "1"
assert_eq "$(printf '%s\n' "$out" | tail -n 1)" "10"
