# A pager or editor started after `pty resize` shows what tmux shows. The
# terminal emulator kept the alternate screen's room at the rows it was
# opened with when the session was made smaller before the program switched
# to it: the program's first scroll kept its top line as hidden scrollback,
# the next resize to a larger size pulled that line back on screen and moved
# the cursor (tmux adds a blank row), and some resizes after that made a
# line feed throw in the emulator. The screen and cursor now equal tmux's.
. "$SCRIPT_LIB"
command -v tmux >/dev/null || skip "tmux is not installed (CI installs it: .ci/run)"
command -v jq >/dev/null || skip "jq is not installed (CI installs it: .ci/run)"
tmux_private

# The program: on Enter, switch to the alternate screen and scroll it; on the
# next Enter, write "end" where the cursor is. No echo ("ready" says so), so
# the two Enters add nothing to the screen.
cat >pager.sh <<'SH'
stty -echo
printf ready
read -r _
printf '\033[?1049h'
seq 1 20
read -r _
printf 'end'
exec sleep 60
SH

# The same steps under tmux: opened at 40x10, made 40x8, the scroll, made 40x12, "end".
tmx new-session -d -s ref -x 40 -y 10 "sh pager.sh"
wait_until 30 output_is "ready" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -o ready"
tmx resize-window -t ref -x 40 -y 8
tmx send-keys -t ref Enter
wait_until 30 output_is "20" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -x 20"
tmx resize-window -t ref -x 40 -y 12
wait_until 30 output_is "12" tmux -S "$TMUX_SOCKET" display -p -t ref '#{pane_height}'
tmx send-keys -t ref Enter
wait_until 30 output_is "end" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -o end"
reference=$(tmx capture-pane -p -t ref | sed 's/ *$//')
reference_cursor=$(tmx display -p -t ref '#{cursor_y} #{cursor_x}')

s=$(corral pty open --cols 40 --rows 10 -- sh pager.sh)
corral pty wait "$s" --text ready --timeout 30s >/dev/null
corral pty resize "$s" --cols 40 --rows 8 >/dev/null
corral pty send "$s" --key Enter --wait-regex '^20$' --timeout 30s >/dev/null
corral pty resize "$s" --cols 40 --rows 12 >/dev/null
corral pty send "$s" --key Enter --wait-text end --timeout 30s >/dev/null

assert_eq "$(corral pty screen "$s" | sed 's/ *$//')" "$reference" "the alternate screen after the resizes, as tmux shows it"
assert_eq "$(corral pty screen "$s" --json | jq -r '"\(.screen.cursor.row) \(.screen.cursor.col)"')" "$reference_cursor" "the cursor where tmux has it"
assert_eq "$(corral pty screen "$s" --json | jq -c '.screen.approximate // false')" "false" "the emulator never failed on the way"
corral pty close "$s" >/dev/null
