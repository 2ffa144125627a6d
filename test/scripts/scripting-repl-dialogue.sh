# A REPL dialogue as a script drives it: send, then wait for the answer after
# the position the send answered, 20 rounds, no sleep. Each answer arrives
# whenever it likes (often before the wait starts): --after never misses it,
# and an anchored pattern never matches an earlier round's answer. (Each
# round is three CLI runs: 20 rounds keep the race in view at 40% of 50's time.)
. "$SCRIPT_LIB"

corral pty open --name py -- python3 -q >/dev/null
corral pty wait py --ready --timeout 30s >/dev/null

for i in $(seq 1 20); do
  # Two processes: send answers the position, wait looks only after it.
  at=$(corral pty send py "print($i * 7)" --key Enter --json | jq .at)
  corral pty wait py --after "$at" --regex "^$((i * 7))\$" --timeout 30s >/dev/null \
    || fail "round $i: the answer $((i * 7)) was not seen after position $at"
  # One process: send and wait together; the reply says what matched.
  got=$(corral pty send py "print('r$i', $i + 1000)" --key Enter --wait-regex "^r$i ([0-9]+)\$" --timeout 30s --json \
    | jq -r '.wait.match.groups[0]')
  assert_eq "$got" "$((i + 1000))" "round $i: the group of the one-call send --wait-regex"
done

# The position only grows, and the list and the screen say the same.
listed=$(corral pty list --json | jq '.sessions[] | select(.name == "py") | .position')
screened=$(corral pty screen py --json | jq .screen.position)
[[ "$listed" -gt 0 && "$screened" -ge "$listed" ]] || fail "positions: list $listed, screen $screened"
corral pty close py >/dev/null
