# fg and bg against another machine's agent, from a real terminal (a tmux
# pane running an interactive bash, as a person's would): run --tty --host
# hands the pane to a job there; Ctrl-Z parks it (148); jobs --host shows it
# stopped; bg --host lets it run on without a terminal; fg --host gives the
# pane back to it, keys go there and its output comes here; Ctrl-C ends it
# there and fg exits with its status. A cut ssh connection under fg is 255
# and one line, and the job lives on for the next call.
. "$SCRIPT_LIB"
sshd_private
tmux_private
trap 'st=$?; tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true; sshd_stop; [[ $st == 0 ]] || tail -20 "$SCRIPT_TMP/remote-state/agent.log" >&2 2>/dev/null || true' EXIT
H="$SSH_DEST:$REMOTE_CORRAL"

# An interactive shell survives the Ctrl-C it forwards (a wrapping sh -c would die of it).
tmx new-session -d -x 100 -y 30 -- bash --norc --noprofile -i
pane_has() { tmx capture-pane -p -J -S -100 | grep -qF -- "$1"; }
pane_wait() {
  local deadline=$((SECONDS + 60))
  until pane_has "$1"; do
    ((SECONDS < deadline)) || { tmx capture-pane -p >&2; fail "the pane never showed: $1"; }
    sleep 0.2
  done
}
type_line() { tmx send-keys -l "$1"; tmx send-keys Enter; }
state() { corral jobs --host "$H" --json | jq -r '.jobs[] | select(.name == "echoer") | .state'; }
attached() { corral jobs --host "$H" --json | jq -r '.jobs[] | select(.name == "echoer") | .attached'; }

type_line 'PS1="$ "; H='"'$H'"
type_line 'corral run --tty --host "$H" --name echoer -- sh -c '"'"'while read l; do echo "got-$l"; done'"'"'; echo "run ended: $?"'
wait_until 60 output_is true attached
type_line one
pane_wait 'got-one'
tmx send-keys C-z
pane_wait 'run ended: 148'
pane_wait '[1]+  Stopped'
assert_eq "$(state)" stopped "the parked job, seen from here"

# bg there: it runs on with no terminal (blocked on its read), listed as running.
type_line 'corral bg --host "$H" echoer; echo "bg ended: $?"'
pane_wait 'bg ended: 0'
pane_has "[1]+ sh -c" || { tmx capture-pane -p >&2; fail "bg printed no job line"; }
assert_eq "$(state)" running "the job after bg --host"

# fg there: the pane is the job's terminal again; keys go there, output comes here.
type_line 'corral fg --host "$H" echoer; echo "fg ended: $?"'
wait_until 60 output_is true attached
type_line two
pane_wait 'got-two'

# The ssh connection under fg cut: 255, one line, and the job lives on there.
# The ssh of the pane's corral: the one ssh among the pane's processes (the shared
# connection's master left them when the first call ended).
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
pane_ssh() { local p; for p in $(descendants "$(tmx display -p '#{pane_pid}')"); do [[ "$(ps -o comm= -p "$p")" != ssh ]] || echo "$p"; done; }
wait_until 30 test -n "$(pane_ssh)"
kill -KILL $(pane_ssh)
pane_wait 'fg ended: 255'
pane_has "corral: the connection to $H was lost" || { tmx capture-pane -p >&2; fail "no lost-connection line"; }
wait_until 60 output_is false attached
assert_eq "$(state)" running "the job after its fg lost the connection"

# The next fg finds it; Ctrl-C ends it there, and fg exits with its status.
type_line 'corral fg --host "$H" echoer; echo "fg again: $?"'
wait_until 60 output_is true attached
type_line three
pane_wait 'got-three'
tmx send-keys C-c
pane_wait 'fg again: 130'
assert_eq "$(corral jobs --host "$H" --json | jq '.jobs | length')" 0 "jobs left after fg saw the end"

# pty attach --host the same way: the cut is 255 and its line, not a detach; the session lives on.
corral pty open --host "$H" --name sh -- sh >/dev/null
corral pty send --host "$H" sh 'echo mark-$((6*7))' --key Enter --wait-text 'mark-42' >/dev/null
type_line 'corral pty attach --host "$H" sh; echo "attach ended: $?"'
pane_wait 'mark-42'
wait_until 30 test -n "$(pane_ssh)"
kill -KILL $(pane_ssh)
pane_wait 'attach ended: 255'
pane_has "corral: the connection to $H was lost" || { tmx capture-pane -p >&2; fail "no lost-connection line after attach"; }
assert_eq "$(corral pty list --host "$H" --json | jq -r '.sessions[] | select(.name == "sh") | .alive')" true "the session after its attach lost the connection"
corral pty close --host "$H" sh --force >/dev/null
# The pane's shell is still there, with its terminal as it was.
type_line 'echo "shell alive"'
pane_wait 'shell alive'
