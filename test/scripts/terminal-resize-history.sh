# Growing a terminal brings back the lines that scrolled off, as tmux does;
# `pty resize` takes the size as COLS ROWS or as --cols/--rows.
. "$SCRIPT_LIB"
tmux_private

id=$(corral pty open --cols 80 --rows 24 -- sh -c 'seq 1 50; exec cat')
tmx -f /dev/null new-session -d -x 80 -y 24 "seq 1 50; exec cat"
tmx set -g status off
corral pty wait "$id" --regex '^50$' --timeout 15s >/dev/null
wait_until 15 sh -c "tmux -S $TMUX_SOCKET capture-pane -p | grep -qx 50"

same_screen() {
  [ "$(corral pty screen "$id" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')" = "$(tmux -S "$TMUX_SOCKET" capture-pane -p)" ]
}

corral pty resize "$id" --cols 80 --rows 30
tmx resize-window -x 80 -y 30
assert_eq "$(corral pty screen "$id" | head -1)" 22 "six lines came back at the top"
wait_until 15 same_screen

corral pty resize "$id" 40 10
tmx resize-window -x 40 -y 10
wait_until 15 same_screen
assert_eq "$(corral pty screen "$id" | wc -l)" 10 "pty screen shows the visible rows only"
assert_eq "$(corral pty screen "$id" --scrollback 3 | head -3 | tr '\n' ' ')" "39 40 41 " "and history when asked"

corral pty resize "$id" --cols 100 --rows 30
tmx resize-window -x 100 -y 30
wait_until 15 same_screen

set +e
corral pty resize "$id" 100 --cols 90 2>err.txt
status=$?
set -e
assert_eq "$status" 2 "a size given twice is a usage error"
assert_contains "$(cat err.txt)" "give the size once"
corral pty close "$id" >/dev/null 2>&1 || true
