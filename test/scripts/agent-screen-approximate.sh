# A session that wrote more than its guardian's raw tail (1 MiB) before the
# agent died is re-adopted with a screen rebuilt from the tail only: `pty
# screen --json` says "approximate": true until the program repaints the
# whole screen, then it is exact again (issue 11).
. "$SCRIPT_LIB"

corral pty open --name big -- sh -c 'i=0; while [ $i -lt 40000 ]; do echo "line $i of filler text to pass one mebibyte"; i=$((i+1)); done; echo mark; read x; printf "\033[2J\033[Hrepainted\n"; read y' >/dev/null
corral pty wait big --text mark --timeout 60s >/dev/null
position=$(corral pty list --json | jq '.sessions[0].position')
(( position > 1048576 )) || fail "the session wrote only $position bytes"
[[ "$(corral pty screen big --json | jq .screen.approximate)" == "null" ]] || fail "a session never re-adopted is exact"

agent=$(corral agent status --json | jq .pid)
kill -KILL "$agent"
wait_until 30 sh -c "! kill -0 $agent 2>/dev/null"

screen=$(corral pty screen big --json)
assert_eq "$(jq .screen.approximate <<<"$screen")" "true" "rebuilt from part of the history"
assert_eq "$(jq .screen.position <<<"$screen")" "$position" "the position continues"
assert_contains "$(jq -r '.screen.lines | join("\n")' <<<"$screen")" "mark"
corral pty send big --key Enter --wait-text repainted >/dev/null
assert_eq "$(corral pty screen big --json | jq .screen.approximate)" "null" "exact again after the program repainted"
assert_eq "$(corral pty screen big --json | jq -r '.screen.lines[0]')" "repainted"

corral reap --all >/dev/null
