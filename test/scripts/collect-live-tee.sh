# collect --live the way a CI step uses it: the output goes through unchanged
# (stdout to stdout, stderr to stderr) while the whole log is kept; a reader
# that is not reading yet makes the step wait (nothing piles up in corral);
# a reader that goes away (| head) ends what goes through, not the log.
# Both ways: under the guardian (it tees itself) and on the JavaScript path.
. "$SCRIPT_LIB"

head -c 20000000 /dev/urandom >data # binary, 20 MB: far more than any pipe holds
seq 1 50000 >text
want=$(sha256sum <data | cut -d' ' -f1)
for backend in auto never; do
  export CORRAL_GUARDIAN=$backend
  rm -f log.* err started first

  got=$(corral collect --live --spill log -- sh -c 'cat data; cat text >&2' 2>err | sha256sum | cut -d' ' -f1)
  assert_eq "$got" "$want" "$backend: stdout goes through byte for byte"
  assert_eq "$(sha256sum <log.stdout | cut -d' ' -f1)" "$want" "$backend: and into the log"
  head -n 50000 err | cmp -s - text || fail "$backend: stderr goes through byte for byte, before the report"
  assert_contains "$(tail -n 2 err)" "[corral: stdout: 20000000 bytes" "$backend: the report follows on stderr"

  # The reader starts only once the command runs: until then every byte waits in the pipes.
  got=$(corral collect --live -- sh -c ': >started; cat data' 2>/dev/null | { wait_until 60 test -e started; sha256sum; } | cut -d' ' -f1)
  assert_eq "$got" "$want" "$backend: a late reader still gets every byte"

  # The reader goes away after 1000 bytes: the command and the log do not notice.
  corral collect --live --spill log -- cat data 2>err | head -c 1000 >first
  cmp -s first <(head -c 1000 data) || fail "$backend: the reader got the first bytes"
  assert_eq "$(sha256sum <log.stdout | cut -d' ' -f1)" "$want" "$backend: the log is whole though the reader left"
  assert_contains "$(cat err)" "[corral: stdout: 20000000 bytes" "$backend: and the report counts every byte"
done
