# A program's output never ends the agent. Erasing to the top of the screen
# (ED 1, `\033[1J`) with the cursor in the last column of a screen that had
# not scrolled made the terminal emulator throw, and the agent stopped on it
# with every session it held. Now the agent stays, the other session stays,
# and the screen is what tmux shows for the same output, at the opened size
# and after a resize.
. "$SCRIPT_LIB"
command -v tmux >/dev/null || skip "tmux is not installed (CI installs it: .ci/run)"
command -v jq >/dev/null || skip "jq is not installed (CI installs it: .ci/run)"
tmux_private

other=$(corral pty open --name bystander -- sh)
agent=$(corral agent status --json | jq .pid)

# The program waits for a line, then erases above itself from the last column of the last row.
cat >erase.sh <<'EOF'
read -r _
printf 'top\r\n\033[%s;%sHx\033[1Jdone' "$1" "$2"
exec sleep 60
EOF

# reference COLS ROWS: tmux's screen after the same program at that size.
reference() {
  tmx new-session -d -s "ref$1x$2" -x "$1" -y "$2" "sh erase.sh $2 $(($1 - 1))"
  tmx send-keys -t "ref$1x$2" Enter
  wait_until 30 output_is "one" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t 'ref$1x$2' | grep -o '^one\$'"
  tmx capture-pane -p -t "ref$1x$2" | sed 's/ *$//'
}

ours() {
  corral pty screen "$1" | sed 's/ *$//'
}

# At the size it was opened with.
s=$(corral pty open --cols 40 --rows 8 -- sh erase.sh 8 39)
corral pty send "$s" --key Enter
corral pty wait "$s" --text done --timeout 30s >/dev/null
assert_eq "$(ours "$s")" "$(reference 40 8)" "the screen after ED 1 in the last column, as tmux shows it"
assert_eq "$(corral pty screen "$s" --json | jq -c '.screen.approximate // false')" "false" "nothing was lost on the way"

# After a resize (the size the emulator was built with is no longer the screen's).
r=$(corral pty open --cols 40 --rows 8 -- sh erase.sh 7 23)
corral pty resize "$r" --cols 24 --rows 7 >/dev/null
corral pty send "$r" --key Enter
corral pty wait "$r" --text done --timeout 30s >/dev/null
assert_eq "$(ours "$r")" "$(reference 24 7)" "the same after a resize to 24x7"

# The agent that held them all is the one still running, and the bystander answers.
assert_eq "$(corral agent status --json | jq .pid)" "$agent" "the agent never stopped"
corral pty send "$other" "echo still-here" --key Enter
corral pty wait "$other" --regex '^still-here$' --timeout 30s >/dev/null
for id in "$s" "$r" "$other"; do corral pty close "$id" >/dev/null; done
