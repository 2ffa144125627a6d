# pty attach --via over a transport that hands on what it read in batches,
# as ssh does under load: the attach reply and the screen's first paint
# arrive in one read. The attached pane must still show the screen, and
# what the session prints next, and detach must leave the session alive.
. "$SCRIPT_LIB"
command -v perl >/dev/null || skip "perl is not installed (it plays the batching transport)"
tmux_private
trap 'tmux -S "$TMUX_SOCKET" kill-server 2>/dev/null || true' EXIT
# The transport: each read waits a moment first, so what came meanwhile goes on in one write.
cat > batch.pl <<'PERL'
binmode STDIN; binmode STDOUT;
while (1) { select(undef, undef, undef, 0.3); my $n = sysread(STDIN, my $buf, 1 << 20); last unless $n; syswrite(STDOUT, $buf); }
PERL
via="sh -c 'corral connect | perl $PWD/batch.pl'"
corral pty open --name sh -- bash --norc --noprofile >/dev/null
corral pty send sh 'PS1="$ "; X=42' --key Enter --wait-text '$ ' >/dev/null

tmx new-session -d -x 80 -y 24 -- sh -c 'corral pty attach --via "$0" sh; echo "attach ended: $?"; exec sleep 600' "$via"
pane_has() { tmx capture-pane -p | grep -q -- "$1"; }
pane_wait() {
  local deadline=$((SECONDS + 60))
  until pane_has "$1"; do
    ((SECONDS < deadline)) || { tmx capture-pane -p >&2; fail "the attached pane never showed $1"; }
    sleep 0.2
  done
}
# The first paint: the screen as it was when the attach came.
pane_wait 'X=42'
corral pty send sh 'echo after-attach-$X' --key Enter --wait-text 'after-attach-42' >/dev/null
pane_wait 'after-attach-42'
tmx send-keys 'echo typed-$((X+1))' Enter
corral pty wait sh --text 'typed-43' --timeout 60s >/dev/null
pane_wait 'typed-43'
tmx send-keys -H 1c
pane_wait 'attach ended: 0'
assert_eq "$(corral pty list --json | jq -r '.sessions[] | select(.name == "sh") | .alive')" true "the session after detaching"
corral pty close sh --force >/dev/null
