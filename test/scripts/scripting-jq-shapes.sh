# jq filters written once against the common shapes work on every command:
# a session is {id, name, pid, argv, size: {cols, rows}, position, alive,
# exit}, a screen has `lines`, a job id is "%N", top levels are objects.
. "$SCRIPT_LIB"

session='{id, name, pid, cols: .size.cols, rows: .size.rows, position, alive}'
opened=$(corral pty open --name shapes --cols 60 --rows 12 --json -- sh -c 'echo hello; read x; exit 4' | jq -c ".session | $session")
assert_eq "$(jq -r .cols <<<"$opened")x$(jq -r .rows <<<"$opened")" "60x12"
id=$(jq -r .id <<<"$opened")
listed=$(corral pty list --json | jq -c --arg id "$id" ".sessions[] | select(.id == \$id) | $session")
assert_eq "$(jq -r .pid <<<"$listed")" "$(jq -r .pid <<<"$opened")" "open and list give the same session"

corral pty wait shapes --text hello --timeout 30s >/dev/null
screen=$(corral pty screen shapes --json)
assert_eq "$(jq -r '.screen.lines[0]' <<<"$screen")" "hello"
assert_eq "$(jq -r '.screen.size.cols' <<<"$screen")" "60"
assert_eq "$(jq -r '.screen.lines | length' <<<"$screen")" "12" "lines are the rows of text; size.rows is the count"
assert_eq "$(jq -r '.screen.rows' <<<"$screen")" "null" "no 'rows' array any more"

at=$(corral pty send shapes 'bye' --key Enter --json | jq .at)
[[ "$at" -gt 0 ]] || fail "send --json answers the position"
waited=$(corral pty wait shapes --exit --json --timeout 30s)
assert_eq "$(jq -r '.fired' <<<"$waited")" "exit"
assert_eq "$(jq -r '.screen.exit.code' <<<"$waited")" "4"
closed=$(corral pty close shapes --json | jq -c ".session | $session + {code: .exit.code}")
assert_eq "$(jq -r '"\(.alive) \(.code)"' <<<"$closed")" "false 4"

job=$(corral run --bg -- sh -c 'exit 0')
corral jobs wait "$job" --timeout 30s >/dev/null
assert_eq "$(corral jobs --json | jq -r --arg j "$job" '.jobs[] | select(.id == $j) | .state')" done "the job once jobs wait returned"
assert_eq "$(corral jobs --json | jq -r --arg j "$job" '.jobs[] | select(.id == $j) | "\(.number) \(.exit.code)"')" "${job#%} 0"
# reap answers with the same job object and session object, plus a receipt.
reaped=$(corral reap --json)
assert_eq "$(jq -r --arg j "$job" '.jobs[] | select(.id == $j) | "\(.number) \(.exit.code) \(.receipt.status)"' <<<"$reaped")" "${job#%} 0 confirmed"
assert_eq "$(jq -r --arg id "$id" '.sessions[] | select(.id == $id) | "\(.name) \(.exit.code) \(.receipt.status)"' <<<"$reaped")" "shapes 4 confirmed"

# resize answers with the session object, its size nested as everywhere.
corral pty open --name sized --json -- sleep 600 >/dev/null
assert_eq "$(corral pty resize sized 100 30 --json | jq -r '.session | "\(.name) \(.size.cols)x\(.size.rows)"')" "sized 100x30"
assert_eq "$(corral pty list --json | jq -r '.sessions[] | select(.name == "sized") | "\(.size.cols)x\(.size.rows)"')" "100x30"
reaped=$(corral reap --all --grace 2s --json)
assert_eq "$(jq -r '.sessions[] | select(.name == "sized") | "\(.terminated) \(.receipt.status) \(.size.cols)"' <<<"$reaped")" "true confirmed 100"
assert_eq "$(jq -r '.orphans | length' <<<"$reaped")" "0"
assert_eq "$(corral collect --json -- sh -c 'exit 3' | jq -r '.exit.code')" "3"
