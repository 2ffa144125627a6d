# A person attached to a session when the agent dies (SIGKILL): the attach
# ends with status 1 and one line saying the agent closed the connection
# (0 is for detaching and for the program's exit), the terminal is given
# back, and the session lives on under its guardian for the next agent.
. "$SCRIPT_LIB"
tmux_private

corral pty open --name cat -- cat >/dev/null
agent=$(corral agent status --json | jq .pid)
tmx new-session -d -x 80 -y 24 "stty -a > '$SCRIPT_TMP/stty.before'; corral pty attach cat 2>'$SCRIPT_TMP/attach.err'; echo \$? > '$SCRIPT_TMP/status'; stty -a > '$SCRIPT_TMP/stty.after'; exec sleep 600"
# Typed into the person's terminal, through the attach, into cat: the attach is live.
wait_until 30 sh -c "tmx() { tmux -S '$TMUX_SOCKET' \"\$@\"; }; tmx send-keys -t 0 typed-through-attach Enter; corral pty screen cat | grep -q typed-through-attach"
kill -KILL "$agent"
wait_until 30 test -s status
assert_eq "$(cat status)" 1 "attach's status when the agent died"
assert_contains "$(cat attach.err)" "corral: the agent closed the connection from session cat"
# The terminal was given back as it was (raw mode undone).
wait_until 30 test -s stty.after
cmp -s stty.before stty.after || fail "the terminal's modes changed: $(diff stty.before stty.after)"
# The session outlived its agent: the next command's agent re-adopts it.
assert_contains "$(corral pty screen cat)" "typed-through-attach"
corral pty close cat --force >/dev/null
