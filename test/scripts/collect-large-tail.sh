# A large kept tail (--max-bytes 16MiB of a 39 MB output, with and without
# a spill file) comes out as the stream's own last bytes: the guardian
# sends it at the end and corral keeps it in one buffer rather than in
# frames and their copy; what is shown must still be exact.
. "$SCRIPT_LIB"

seq 1 5000000 > expected
for spill in "" "--spill full.log"; do
  # shellcheck disable=SC2086 # $spill is empty or two words on purpose
  corral collect --max-bytes 16MiB $spill -- cat expected > shown 2> report
  marker=$(grep -n '^\[corral: ' shown | cut -d: -f1)
  [[ -n "$marker" ]] || fail "collect ${spill:-without a spill} printed no elision marker"
  tail -n +"$((marker + 1))" shown > shown-tail
  size=$(stat -c %s shown-tail)
  # Head and tail may be cut up to 4 KiB short, at a line end (README: line snap).
  (( size > 16 * 1024 * 1024 - 4096 && size <= 16 * 1024 * 1024 )) || fail "tail of $size bytes for --max-bytes 16MiB"
  tail -c "$size" expected | cmp -s - shown-tail || fail "the tail shown is not the stream's last $size bytes (${spill:-no spill})"
  head -n "$((marker - 1))" shown > shown-head
  hsize=$(stat -c %s shown-head)
  (( hsize > 65536 - 4096 && hsize <= 65536 )) || fail "head of $hsize bytes for the default 64 KiB"
  head -c "$hsize" expected | cmp -s - shown-head || fail "the head shown is not the stream's first $hsize bytes"
done
# stdout and stderr spill apart: full.log.stdout and full.log.stderr.
cmp -s expected full.log.stdout || fail "the spill file is not the whole stream"
# --json writes the kept text in pieces: the same head and tail, whole.
corral collect --max-bytes 16MiB --json -- cat expected > report.json
jq -j .stdout.tail report.json > json-tail
size=$(stat -c %s json-tail)
(( size > 16 * 1024 * 1024 - 4096 && size <= 16 * 1024 * 1024 )) || fail "--json tail of $size bytes for --max-bytes 16MiB"
tail -c "$size" expected | cmp -s - json-tail || fail "--json: the tail is not the stream's last $size bytes"
jq -j .stdout.head report.json > json-head
head -c "$(stat -c %s json-head)" expected | cmp -s - json-head || fail "--json: the head is not the stream's first bytes"
[[ $(jq -r '.stdout.bytes' report.json) == "$(stat -c %s expected)" ]] || fail "--json: bytes is not the stream's size"
