# What collect shows reaches a pipe whole and in order, however the reader
# is set up: corral writes to a stdout that is no terminal straight to the
# descriptor (cli/lazy-stdio.ts) and hands over to the stream when the pipe
# is full and non-blocking. Here: several MiB (far more than a pipe holds)
# through a plain pipe, through a slow reader, and with stderr sent to a
# file, each compared byte for byte with the command's own output.
. "$SCRIPT_LIB"

seq 1 1000000 > expected
want=$(sha256sum < expected | cut -d' ' -f1)

corral collect --max-bytes 64MiB -- seq 1 1000000 | sha256sum | cut -d' ' -f1 > got
assert_eq "$(cat got)" "$want" "collect's output through a pipe"

# A reader that takes 4 KiB at a time: corral waits on the full pipe, nothing is lost.
corral collect --max-bytes 64MiB -- seq 1 1000000 | dd bs=4096 status=none | sha256sum | cut -d' ' -f1 > got
assert_eq "$(cat got)" "$want" "collect's output through a slow reader"

# stderr to a file, stdout to the pipe: the output is whole and nothing was reported.
corral collect --max-bytes 64MiB -- seq 1 1000000 2>report | sha256sum | cut -d' ' -f1 > got
assert_eq "$(cat got)" "$want" "stdout whole while stderr goes elsewhere"
if [[ -s report ]]; then fail "nothing was cut, so collect printed no report: $(cat report)"; fi
