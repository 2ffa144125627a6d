# A stream whose bytes fit head plus tail is reproduced whole, whatever the
# line alignment; one byte more and something is elided (-1/0/+1 at the fit).
. "$SCRIPT_LIB"

seq 1 1000 | head -c 1100 >f
corral collect --head-bytes 100 --max-bytes 1000 -- cat f >out
cmp out f || fail "1100 bytes in head 100 + tail 1000 not reproduced whole"
corral collect --head-bytes 100 --max-bytes 1001 -- cat f >out
cmp out f || fail "one byte to spare"
corral collect --head-bytes 100 --max-bytes 999 -- cat f >out 2>/dev/null
! cmp -s out f || fail "one byte short must elide"
grep -q '^\[corral: .* elided' out || fail "one byte short: no marker"
# Aligned on lines (line 10 ends the head window) and not: the same.
seq 1 300 >g
size=$(wc -c <g | tr -d ' ')
corral collect --head-bytes 21 --max-bytes $((size - 21)) -- cat g >out
cmp out g || fail "aligned fit"
corral collect --head-bytes 23 --max-bytes $((size - 23)) -- cat g >out
cmp out g || fail "unaligned fit"
