# 150 idle sessions at default settings in one agent. The screen budget
# charges what screens hold; when it charged each session's whole possible
# scrollback (80 x (24 + 2000) cells) it refused the 99th `pty open`. One
# connection opens them all, as a script would (`corral connect`). A run of
# 1,000 is measured, not tested: test/bench/idle-sessions-memory.bench.ts.
. "$SCRIPT_LIB"

N=150
for i in $(seq 1 "$N"); do
  printf '{"op":"open","argv":["sleep","600"],"name":"idle%s"}\n' "$i"
done > opens.jsonl
corral connect < opens.jsonl > replies.jsonl
ok=$(jq -c 'select(.ok == true)' replies.jsonl | wc -l)
assert_eq "$ok" "$N" "every open succeeded; the first refusal: $(jq -c 'select(.ok != true)' replies.jsonl | head -n 1)"
assert_eq "$(corral pty list --json | jq '[.sessions[] | select(.alive)] | length')" "$N"
# The last one opened reads like any other, nothing trimmed.
corral pty screen "idle$N" --json | jq -e '.screen.alive and (.screen | has("scrollbackTrimmed") | not)' >/dev/null
corral agent stop --force >/dev/null
