# "The command finished and the program waits for me again", without knowing
# its prompt: --wait-ready in bash, in python3, and vim once it opened a file.
. "$SCRIPT_LIB"

corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty wait sh --ready --timeout 30s >/dev/null
fired=$(corral pty send sh 'sleep 1; echo done' --key Enter --wait-ready --timeout 30s)
assert_eq "$fired" "ready" "bash: send --wait-ready"
# Ready means the command finished: its output is already on the screen.
screen=$(corral pty screen sh)
[[ "$screen" == *$'\n'done$'\n'* ]] || fail "bash: 'done' is not on the screen once ready: $screen"
fg=$(corral pty screen sh --json | jq -r '.screen.foreground | "\(.waitingForInput) \(.argv[0])"')
assert_contains "$fg" "true " "the screen names the foreground process waiting for input"
assert_contains "$fg" "bash" "the foreground process is bash"

corral pty open --name py -- python3 -q >/dev/null
corral pty wait py --ready --timeout 30s >/dev/null
corral pty send py 'import time; time.sleep(1); print("done")' --key Enter --wait-ready --timeout 30s >/dev/null
corral pty screen py | grep -qx 'done' || fail "python3: 'done' is not on the screen once ready"

printf 'first line\nsecond line\n' > notes.txt
corral pty open --name vi -- vim -u NONE -i NONE -n notes.txt >/dev/null
corral pty wait vi --ready --timeout 30s >/dev/null
corral pty screen vi | grep -q 'second line' || fail "vim: the file is not on the screen once ready"
# While a command runs, the foreground process is not waiting for input.
corral pty send sh 'sleep 30' --key Enter --json >/dev/null
wait_until 30 bash -c '[[ $(corral pty list --json | jq -r ".sessions[] | select(.name == \"sh\") | .foreground.argv[0]") == sleep ]]'
waiting=$(corral pty list --json | jq '.sessions[] | select(.name == "sh") | .foreground.waitingForInput')
assert_eq "$waiting" "false" "sleep is in the foreground and does not read the terminal"
corral pty send sh --key C-c --wait-ready --timeout 30s >/dev/null

for s in sh py vi; do corral pty close "$s" --force >/dev/null; done
