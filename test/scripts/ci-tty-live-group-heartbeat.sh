# collect --tty takes the CI flags too: --group folds its output, --live
# streams it through (the report then on stderr), --heartbeat reports while
# it runs; with --job they are refused (exit 2), not silently ignored.
. "$SCRIPT_LIB"

GITHUB_ACTIONS=true corral collect --tty --group "tty step" -- echo folded > grouped.out
assert_eq "$(head -n 1 grouped.out)" "::group::tty step" "the group opens first"
assert_eq "$(tail -n 1 grouped.out)" "::endgroup::" "the group closes last"
grep -q '^folded' grouped.out || fail "the output is inside the group: $(cat grouped.out)"

corral collect --tty --live -- printf 'one\ntwo\n' > live.out 2> live.err
assert_eq "$(tr -d '\r' < live.out)" "$(printf 'one\ntwo')" "--live: the terminal's output on stdout as it came"
assert_contains "$(cat live.err)" "[corral: output: 10 bytes, 2 lines]" "--live: the report on stderr"

# The step runs about 3 s (the program under test, not a wait of ours).
corral collect --tty --heartbeat 1s -- sh -c 'echo started; sleep 3' > beat.out 2> beat.err
beats=$(grep -c '^corral: heartbeat: ' beat.err || true)
((beats >= 1)) || fail "no heartbeat line during a 3 s step: $(cat beat.err)"
assert_contains "$(cat beat.err)" "last line: started"

corral run --bg -- true > /dev/null
set +e
corral collect --job %1 --live 2> refused.err
status=$?
set -e
assert_eq "$status" 2 "--live with --job is a usage error"
assert_contains "$(cat refused.err)" "go with a command"
corral reap --all > /dev/null
