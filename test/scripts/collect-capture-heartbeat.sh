# A CI step whose output the guardian keeps for corral (collect without
# --live: no byte passes through JavaScript) still gets an honest heartbeat:
# the same bytes, lines and last line as on the JavaScript path, taken from
# the guardian's progress. The step writes 100000 lines and waits for a file
# this script creates once the heartbeat counted them all.
. "$SCRIPT_LIB"

for backend in auto never; do
  rm -f stop hb.out hb.err
  CORRAL_GUARDIAN=$backend corral collect --heartbeat 1s --max-bytes 100 -- \
    sh -c 'seq 1 100000; while [ ! -e stop ]; do sleep 0.1; done; echo done' >hb.out 2>hb.err &
  pid=$!
  wait_until 120 grep -q "588895 bytes, 100000 lines so far; last line: 100000$" hb.err
  touch stop
  wait "$pid" || fail "$backend: collect exited $?"
  assert_eq "$(tail -n 1 hb.out)" "done" "$backend: the tail"
  assert_contains "$(cat hb.out)" "100001 lines, " "$backend: the marker counts every line"
done
