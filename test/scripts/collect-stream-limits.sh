# collect keeps each stream by its own limits, stdout's and stderr's apart,
# under the guardian (which keeps both streams itself, each with its own
# head and tail) as without it (JavaScript keeps them): the same head, tail,
# byte and line counts either way, each stream's own bytes, and the spill
# files whole. The flags set both streams alike; that each stream can be
# given different limits is test/lib/supervise/stream-capture.test.ts's.
. "$SCRIPT_LIB"

seq 1 40000 > out.expected
seq 100001 130000 > err.expected
cat > both.sh <<'SH'
cat out.expected
cat err.expected >&2
SH

for mode in always never; do
  CORRAL_GUARDIAN=$mode corral collect --explain --json --head-bytes 2k --max-bytes 8k --spill "$mode.log" -- sh both.sh > "$mode.json" 2> "$mode.explain" \
    || fail "collect under guardian: $mode failed: $(cat "$mode.explain")"
  for stream in out err; do
    name=std$stream
    [[ $(jq -r ".$name.bytes" "$mode.json") == "$(stat -c %s "$stream.expected")" ]] || fail "$mode: $name bytes is not the stream's size"
    [[ $(jq -r ".$name.lines" "$mode.json") == "$(wc -l < "$stream.expected")" ]] || fail "$mode: $name lines is not the stream's line count"
    jq -j ".$name.head" "$mode.json" > "$mode.$stream.head"
    jq -j ".$name.tail" "$mode.json" > "$mode.$stream.tail"
    hsize=$(stat -c %s "$mode.$stream.head")
    tsize=$(stat -c %s "$mode.$stream.tail")
    # A cut may snap back to a line end, never past the limit (README: line snap).
    (( hsize > 0 && hsize <= 2048 )) || fail "$mode: $name head of $hsize bytes for --head-bytes 2k"
    (( tsize > 0 && tsize <= 8192 )) || fail "$mode: $name tail of $tsize bytes for --max-bytes 8k"
    head -c "$hsize" "$stream.expected" | cmp -s - "$mode.$stream.head" || fail "$mode: the $name head is not that stream's first $hsize bytes"
    tail -c "$tsize" "$stream.expected" | cmp -s - "$mode.$stream.tail" || fail "$mode: the $name tail is not that stream's last $tsize bytes"
    cmp -s "$stream.expected" "$mode.log.std$stream" || fail "$mode: the $name spill file is not the whole stream"
  done
done
assert_contains "$(cat always.explain)" "the guardian keeps the output" "--explain under the guardian says who keeps the output"
assert_contains "$(cat never.explain)" "JavaScript keeps the output" "--explain without the guardian says who keeps the output"
# The same report either way, but for the exit facts' timing and the spill names.
for stream in out err; do
  cmp -s "always.$stream.head" "never.$stream.head" || fail "std$stream: the guardian's head differs from JavaScript's"
  cmp -s "always.$stream.tail" "never.$stream.tail" || fail "std$stream: the guardian's tail differs from JavaScript's"
done
