# pty attach --host: this terminal (a tmux pane) holds a session of another
# machine's agent through the same ssh connection; keys go there, its output
# comes here, C-\ detaches and the session lives on.
. "$SCRIPT_LIB"
sshd_private
tmux_private
trap 'st=$?; tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true; sshd_stop' EXIT
H="$SSH_DEST:$REMOTE_CORRAL"
corral pty open --host "$H" --name sh -- bash --norc --noprofile >/dev/null
corral pty send --host "$H" sh 'PS1="$ "; X=42' --key Enter --wait-text '$ ' >/dev/null

tmx new-session -d -x 80 -y 24 -- sh -c 'corral pty attach --host "$0" sh; echo "attach ended: $?"; exec sleep 600' "$H"
pane_has() { tmx capture-pane -p | grep -q -- "$1"; }
pane_wait() {
  local deadline=$((SECONDS + 60))
  until pane_has "$1"; do
    ((SECONDS < deadline)) || { tmx capture-pane -p >&2; fail "the attached pane never showed $1"; }
    sleep 0.2
  done
}
# The attach is in place once the pane shows the session's screen (its first paint).
pane_wait 'X=42'
corral pty send --host "$H" sh 'echo before-attach-$X' --key Enter --wait-text 'before-attach-42' >/dev/null
pane_wait 'before-attach-42'
tmx send-keys 'echo typed-$((X+1))' Enter
corral pty wait --host "$H" sh --text 'typed-43' --timeout 60s >/dev/null
pane_wait 'typed-43'
tmx send-keys -H 1c
pane_wait 'attach ended: 0'
assert_eq "$(corral pty list --host "$H" --json | jq -r '.sessions[] | select(.name == "sh") | .alive')" true "the session after detaching"
corral pty close --host "$H" sh --force >/dev/null
