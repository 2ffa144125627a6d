# The scroll region is the terminal's, not one screen's: a region a program
# sets on the alternate screen still holds after it switches back (so the
# lines below scroll only inside it, as a user sees in xterm and tmux), and
# one set on the normal screen holds on the alternate screen. corral's
# terminal emulator kept a region per screen and scrolled the whole screen;
# the screen is now what tmux shows after either switch.
. "$SCRIPT_LIB"
command -v tmux >/dev/null || skip "tmux is not installed (CI installs it: .ci/run)"
tmux_private

# Phase one: seven lines, then on the alternate screen a region of rows 2-4
# is set and left set; back on the normal screen three lines from row 4
# scroll inside it. Phase two (after Enter): on the alternate screen, text
# that wraps on the last row, below the region, must not scroll the screen.
cat >regions.sh <<'SH'
stty -echo
for i in 1 2 3 4 5 6 7; do printf 'line %s\r\n' "$i"; done
printf '\033[?1049h\033[2;4r\033[?1049l'
printf '\033[4;1Ha\r\nb\r\nc'
read -r _
printf '\033[?1049h\033[8;20Hxend'
exec sleep 60
SH

tmx new-session -d -s ref -x 20 -y 8 "sh regions.sh"
wait_until 30 output_is "c" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -x c"
tmux_normal=$(tmx capture-pane -p -t ref | sed 's/ *$//')
tmx send-keys -t ref Enter
wait_until 30 output_is "end" sh -c "tmux -S '$TMUX_SOCKET' capture-pane -p -t ref | grep -o end"
tmux_alternate=$(tmx capture-pane -p -t ref | sed 's/ *$//')

s=$(corral pty open --cols 20 --rows 8 -- sh regions.sh)
corral pty wait "$s" --regex '^c$' --timeout 30s >/dev/null
assert_eq "$(corral pty screen "$s" | sed 's/ *$//')" "$tmux_normal" "a region left set on the alternate screen holds on the normal screen, as in tmux"
corral pty send "$s" --key Enter --wait-text end --timeout 30s >/dev/null
assert_eq "$(corral pty screen "$s" | sed 's/ *$//')" "$tmux_alternate" "a region set before the switch holds on the alternate screen, as in tmux"
corral pty close "$s" >/dev/null
