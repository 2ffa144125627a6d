# A full disk under `collect --spill` is corral's storage failure, never the
# child's: on every backend the child's status is unchanged, the tail shown is
# the end of the stream (not of the file), a warning names the incomplete
# spill, and --json says so (spillError). Needs root to mount a 1 MiB tmpfs.
. "$SCRIPT_LIB"

if [[ $(id -u) -ne 0 ]]; then
  skip "mounting a 1 MiB tmpfs needs root (running as uid $(id -u))"
fi
mkdir small
if ! mount -t tmpfs -o size=1m corral-test-full "$SCRIPT_TMP/small" 2>mount.err; then
  skip "cannot mount a tmpfs here: $(cat mount.err)"
fi
trap 'umount "$SCRIPT_TMP/small" 2>/dev/null || umount -l "$SCRIPT_TMP/small" || true' EXIT

# The bytes after collect's marker line: the tail it shows.
tail_after_marker() {
  sed -n '/^\[corral: .*bytes elided /,$p' "$1" | tail -n +2
}

for backend in auto never; do
  export CORRAL_GUARDIAN=$backend
  rm -f small/*

  # A stream far bigger than the disk, a small tail.
  set +e
  corral collect --head-bytes 64 --max-bytes 4096 --spill small/big -- seq 1 1000000 > big.out 2> big.err
  status=$?
  set -e
  assert_eq "$status" 0 "$backend: seq's own status, whatever the disk did"
  seq 1 1000000 | tail -c 4096 > big.want
  tail_after_marker big.out > big.tail
  cmp -s big.tail big.want || fail "$backend: the tail shown is not the end of the stream: $(tail -c 60 big.tail | tr '\n' ' ')"
  assert_contains "$(cat big.out)" "small/big.stdout is incomplete" "$backend: the marker does not claim a full file"
  assert_contains "$(cat big.err)" "no space left on the device; the spill file is incomplete" "$backend: warning on stderr"

  # Just over the disk, with a tail as large as the disk: part of the tail
  # was in the file when it filled, the rest came after. stderr's line is
  # kept whether its spill was written before the disk filled or failed.
  rm -f small/*
  set +e
  corral collect --json --spill small/edge -- sh -c 'seq 1 200000; echo "the end" >&2' > edge.json 2> edge.err
  status=$?
  set -e
  assert_eq "$status" 0 "$backend: status with the tail spanning the failure"
  node -e '
    const fs = require("fs");
    const r = JSON.parse(fs.readFileSync("edge.json", "utf8"));
    const { execFileSync } = require("child_process");
    // The last 1 MiB, from its first whole line on (a byte cut moves to a line end, README "Lines").
    const all = execFileSync("sh", ["-c", "seq 1 200000"], { maxBuffer: 1 << 24 }).toString();
    let start = all.length - 1048576;
    if (all[start - 1] !== "\n") start = all.indexOf("\n", start) + 1;
    const want = all.slice(start);
    const fail = (m) => { console.error("FAIL: '"$backend"': " + m); process.exit(1); };
    if (r.exit.code !== 0) fail("exit code " + r.exit.code);
    if (r.stdout.bytes !== 1288895) fail("stdout bytes " + r.stdout.bytes);
    if (r.stdout.tail !== want) fail("stdout tail is not the end of the stream");
    if (!/no space left/.test(r.stdout.spillError ?? "")) fail("stdout.spillError: " + r.stdout.spillError);
    if (r.stderr.tail !== "the end\n" && r.stderr.head !== "the end\n") fail("stderr lost: " + JSON.stringify(r.stderr));
    // Whether stderr reached the disk before stdout filled it depends on timing; either way it is accounted for.
    const inFile = fs.readFileSync("small/edge.stderr", "utf8");
    if (r.stderr.spillError === null ? inFile !== "the end\n" : !/no space left/.test(r.stderr.spillError)) {
      fail("stderr spill: error " + r.stderr.spillError + ", file " + JSON.stringify(inFile));
    }
  '
done
