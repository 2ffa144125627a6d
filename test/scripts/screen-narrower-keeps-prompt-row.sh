# A shell screen not yet full, made narrower: the long lines rewrap into
# more rows, and the prompt keeps its row with the blank rows under it while
# the top lines go into the history, as in tmux. corral's emulator moved the
# prompt down instead (3 rows here) until something had scrolled off.
. "$SCRIPT_LIB"
command -v tmux >/dev/null || skip "tmux is not installed (CI installs it: .ci/run)"
command -v jq >/dev/null || skip "jq is not installed (CI installs it: .ci/run)"
tmux_private

long="seq -s' ' 1 30; seq -s' ' 100 125; echo short"
ours() { corral pty screen "$s" | sed 's/ *$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
theirs() { tmx capture-pane -p -t ref | sed 's/ *$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

tmx new-session -d -s ref -x 80 -y 24 "env PS1='\$ ' bash --norc --noprofile"
wait_until 30 output_is '$' sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | sed 's/ *\$//' | grep -x '\\$'"
tmx send-keys -t ref "$long" Enter
wait_until 30 output_is "short" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -x short"

s=$(corral pty open --cols 80 --rows 24 --env 'PS1=$ ' -- bash --norc --noprofile)
corral pty wait "$s" --ready --timeout 30s >/dev/null
corral pty send "$s" "$long" --key Enter --wait-ready --timeout 30s >/dev/null

for size in 40x24 100x24 30x10; do
  cols=${size%x*} rows=${size#*x}
  corral pty resize "$s" --cols "$cols" --rows "$rows" >/dev/null
  tmx resize-window -t ref -x "$cols" -y "$rows"
  corral pty wait "$s" --stable 300ms --timeout 30s >/dev/null
  want=$(ours)
  # tmux redraws on its own time: its screen must come to be ours.
  wait_until 30 output_is "$want" theirs
  assert_eq "$(corral pty screen "$s" --json | jq -r '"\(.screen.cursor.row) \(.screen.cursor.col)"')" "$(tmx display -p -t ref '#{cursor_y} #{cursor_x}')" "the cursor where tmux has it at $size"
done
corral pty close "$s" >/dev/null
