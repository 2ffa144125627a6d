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
fired=$(corral pty send py 'import time; time.sleep(1); print("done")' --key Enter --wait-ready --timeout 30s)
assert_eq "$fired" "ready" "python3: send --wait-ready"
screen=$(corral pty screen py)
[[ "$screen" == *$'\n'done$'\n'* ]] || fail "python3: 'done' is not on the screen once ready: $screen"

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

# A shell blocked reading a command substitution's pipe (`x=$(slow)`, what
# pyenv's python3 shim does before it execs python) is not waiting for the
# person: its read is not on the terminal. Once it execs cat, it is.
mkfifo gate
corral pty open --name cs -- bash -c 'x=$(read -r line < gate; echo "$line"); echo "got $x"; exec cat' >/dev/null
pid=$(corral pty list --json | jq -r '.sessions[] | select(.name == "cs") | .pid')
case $(uname -m) in aarch64) read_nr=63 ;; *) read_nr=0 ;; esac
wait_until 30 bash -c "[[ \$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null) == $read_nr ]]"
waiting=$(corral pty list --json | jq '.sessions[] | select(.name == "cs") | .foreground.waitingForInput')
assert_eq "$waiting" "false" "bash reading a command substitution's pipe is not waiting for input"
echo hi > gate
corral pty wait cs --text 'got hi' --timeout 30s >/dev/null
corral pty wait cs --ready --timeout 30s >/dev/null
argv0=$(corral pty list --json | jq -r '.sessions[] | select(.name == "cs") | "\(.foreground.waitingForInput) \(.foreground.argv[0])"')
assert_eq "$argv0" "true cat" "cat reading the terminal is waiting for input"

# A read on /dev/tty opened anew (as less reads keys) is a read on the terminal.
corral pty open --name tty3 -- bash -c 'exec 3</dev/tty; read -r -u 3 x; echo "read $x"; exec cat' >/dev/null
corral pty wait tty3 --ready --timeout 30s >/dev/null
fired=$(corral pty send tty3 'typed' --key Enter --wait-ready --timeout 30s)
assert_eq "$fired" "ready" "bash read -u 3 from /dev/tty, then cat"
screen=$(corral pty screen tty3)
grep -qx "read typed" <<<"$screen" || fail "the /dev/tty read did not get the line: $screen"

for s in sh py vi cs tty3; do corral pty close "$s" --force >/dev/null; done
