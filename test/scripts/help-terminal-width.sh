# `corral ... --help` in a terminal fits the terminal: in a 100-column tmux
# window every line of `pty send --help` (whose usage line alone is 180
# characters) is at most 100 columns, and some are longer than 80, so it
# wrapped to the terminal rather than to the 80 a pipe gets.
. "$SCRIPT_LIB"
tmux_private

tmx new-session -d -x 100 -y 60 -- sh -c 'env -u COLUMNS corral pty send --help; echo help-done; exec sleep 600'
# -J joins the lines the terminal wrapped itself: a line too long for it shows whole.
help_done() { tmx capture-pane -p -J -S - | grep -q '^help-done$'; }
wait_until 60 help_done
text=$(tmx capture-pane -p -J -S -)
assert_contains "$text" 'corral pty send [--key name]...'
longest=$(printf '%s\n' "$text" | awk '{ if (length($0) > max) max = length($0) } END { print max }')
((longest <= 100)) || fail "a help line is $longest columns in a 100-column terminal"
((longest > 80)) || fail "the help was wrapped to 80 columns, not to the terminal's 100 (longest line: $longest)"
