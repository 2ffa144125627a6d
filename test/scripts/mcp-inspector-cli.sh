# A second, independent MCP client drives `corral mcp`: the inspector's CLI
# (@modelcontextprotocol/inspector-cli) lists the tools and calls run, then
# opens a session the CLI can see, reads its screen and closes it, and runs
# a command line with terminal_exec in a shell the CLI opened.
. "$SCRIPT_LIB"

inspector="$CORRAL_REPO/node_modules/.bin/mcp-inspector-cli"
# inspector-cli 1.0.3 looks for its package.json as ../package.json relative to
# the working directory but imports it relative to its own file: it works from
# a directory whose parent holds a package.json (else "Cannot find module
# .../@modelcontextprotocol/package.json").
echo '{}' > package.json
mkdir -p client && cd client
mcp() { "$inspector" --cli corral mcp "$@" 2>/dev/null | sed -n '/^[{[]/,$p'; }

tools=$(mcp --method tools/list)
assert_eq "$(jq -r '[.tools[].name] | join(" ")' <<<"$tools")" \
  "run terminal_open terminal_send terminal_exec terminal_screen terminal_wait terminal_close terminal_list job_start job_read job_wait job_stop"
assert_eq "$(jq '[.tools[] | select(.outputSchema.type == "object")] | length' <<<"$tools")" "12" "every tool has an output schema"

ran=$(mcp --method tools/call --tool-name run --tool-arg 'command=seq 1 3; exit 3')
assert_eq "$(jq -c '.structuredContent | [.status, .output, .lines]' <<<"$ran")" '[3,"1\n2\n3\n",3]'

opened=$(mcp --method tools/call --tool-name terminal_open --tool-arg 'command=cat' --tool-arg name=kitten)
assert_eq "$(jq -r '.structuredContent.session.name' <<<"$opened")" "kitten"
assert_eq "$(corral pty list --json | jq -r '.sessions[0].name')" "kitten" "the CLI sees the session the inspector opened"
mcp --method tools/call --tool-name terminal_send --tool-arg session=kitten --tool-arg text=meow >/dev/null
corral pty wait kitten --text meow --timeout 30s >/dev/null
screen=$(mcp --method tools/call --tool-name terminal_screen --tool-arg session=kitten)
assert_eq "$(jq -r '.structuredContent.lines[0]' <<<"$screen")" "meow"
closed=$(mcp --method tools/call --tool-name terminal_close --tool-arg session=kitten --tool-arg force=true)
assert_eq "$(jq '.structuredContent.session.alive' <<<"$closed")" "false"

corral pty open --name shell1 -- bash >/dev/null
executed=$(mcp --method tools/call --tool-name terminal_exec --tool-arg session=shell1 --tool-arg 'command=cd / && echo hi; (exit 3)')
assert_eq "$(jq -c '.structuredContent | [.status, .output, .cwd]' <<<"$executed")" '[3,"hi\n","/"]'
corral pty close shell1 --force >/dev/null

failed=$(mcp --method tools/call --tool-name terminal_screen --tool-arg session=nope)
assert_eq "$(jq '.isError' <<<"$failed")" "true"
assert_contains "$(jq -r '.content[0].text' <<<"$failed")" "unknown_session: "
