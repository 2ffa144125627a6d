# collect --live in a CI step: the log shows the output as it comes, the
# whole log is kept as an artifact (identical bytes), the summary goes to stderr.
. "$SCRIPT_LIB"

corral collect --live --merge --spill test.log -- sh -c 'for i in $(seq 1 2000); do echo "test $i ok"; done; echo "1 failure" >&2; exit 1' >live.out 2>summary.txt || status=$?
assert_eq "${status:-0}" 1 "the step's status passes through"
cmp live.out test.log || fail "--live output and the spill differ"
assert_eq "$(tail -n 1 live.out)" "1 failure"
assert_contains "$(cat summary.txt)" "[corral: output: "
assert_contains "$(cat summary.txt)" "2001 lines; full output in test.log]"

# Large and binary: byte-identical.
head -c 20000000 /dev/urandom >blob
corral collect --live --spill blob.copy -- cat blob >blob.live 2>/dev/null
cmp blob blob.live || fail "--live changed bytes"
cmp blob blob.copy.stdout || fail "the --live spill changed bytes"
