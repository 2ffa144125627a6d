# A script pipes a batch of MCP requests into `corral mcp` and reads every
# answer: the server answers the calls asked before stdin ended (it used to
# end at once with them unanswered), gives a run still going a grace, then
# ends it and says how it ended, answers the waits still going with what
# they have (done:false), and exits. The text names what a command did not
# get by why: corral's own settings apart from credentials.
. "$SCRIPT_LIB"

# A session and a job the batch waits on, which end after the batch does.
corral pty open --name waited -- cat > /dev/null
corral run --bg --name longjob -- sleep 300 > /dev/null

export DEPLOY_API_TOKEN=not-for-children
{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"batch","version":"1"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"argv":["sh","-c","echo hi; exit 3"]}}}'
  echo '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"terminal_send","arguments":{"session":"nope","text":"x"}}}'
  echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run","arguments":{"argv":["sleep","300"]}}}'
  echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"terminal_wait","arguments":{"session":"waited","text":"never-shown","timeoutMs":50000}}}'
  echo '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"job_wait","arguments":{"job":"longjob","timeoutMs":50000}}}'
  # More waits at once than Node's listener limit (10): still one answer each, and no warning.
  for id in $(seq 7 18); do
    echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"tools/call\",\"params\":{\"name\":\"terminal_wait\",\"arguments\":{\"session\":\"waited\",\"text\":\"never-shown\",\"timeoutMs\":50000}}}"
  done
} | corral mcp > answers.jsonl 2> mcp-stderr.txt
status=$?
assert_eq "$status" 0 "corral mcp's status once stdin ended"

echo "the answers (shown when an assert fails):"; cat answers.jsonl
answer() { jq -c "select(.id == $1)" answers.jsonl; }
assert_eq "$(answer 2 | jq .result.structuredContent.status)" 3 "the quick run's status"
assert_contains "$(answer 2 | jq -r '.result.content[0].text')" "not passed (credential-shaped): DEPLOY_API_TOKEN"
assert_contains "$(answer 2 | jq -r '.result.content[0].text')" "not passed (corral's own settings): CORRAL_"
assert_eq "$(answer 3 | jq .result.isError)" true "the send to no session"
assert_contains "$(answer 3 | jq -r '.result.content[0].text')" "unknown_session"
# The run still going when the grace ran out was ended, and its call says so.
assert_eq "$(answer 4 | jq .result.structuredContent.status)" 143 "the long run, ended after the grace"
# The waits still going then answered with what they had, and said why.
assert_eq "$(answer 5 | jq .result.structuredContent.done)" false "the terminal wait cut short"
assert_contains "$(answer 5 | jq -r '.result.content[0].text')" "not finished: the server is ending (its client closed stdin)"
assert_eq "$(answer 6 | jq .result.structuredContent.done)" false "the job wait cut short"
assert_eq "$(answer 6 | jq -r .result.structuredContent.job.state)" running "the job, still running"
assert_contains "$(answer 6 | jq -r '.result.content[0].text')" "not finished: the server is ending (its client closed stdin); the job keeps running"
assert_eq "$(jq -s '[.[] | select(.id >= 7 and .result.structuredContent.done == false)] | length' answers.jsonl)" 12 "the twelve waits at once, each answered"
assert_eq "$(cat mcp-stderr.txt)" "" "corral mcp's stderr"
corral pty close waited > /dev/null
corral reap --all > /dev/null
