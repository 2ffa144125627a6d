# Emoji, CJK and combining characters typed and edited in bash: the cursor
# lands where the C library's wcwidth says (what bash itself counts), and
# the line looks as it does in tmux. (Characters written literally: $'\U...'
# depends on the locale bash parses the script in.)
. "$SCRIPT_LIB"
tmux_private

# The columns of a string as the C library counts them.
wcswidth() {
  python3 -c 'import ctypes, locale, sys
locale.setlocale(locale.LC_ALL, "C.UTF-8")
libc = ctypes.CDLL(None)
libc.wcswidth.argtypes = [ctypes.c_wchar_p, ctypes.c_size_t]
print(libc.wcswidth(sys.argv[1], len(sys.argv[1])))' "$1"
}
cursor_col() {
  corral pty screen "$1" --json | jq .screen.cursor.col
}
first_row() {
  corral pty screen "$1" | head -1
}

export LANG=C.UTF-8
id=$(corral pty open --env PS1='$ ' --env HISTFILE=/dev/null -- bash --norc --noprofile)
tmx -f /dev/null new-session -d -x 80 -y 24 "env PS1='\$ ' HISTFILE=/dev/null bash --norc --noprofile"
tmx set -g status off
corral pty wait "$id" --regex '^\$' --timeout 15s >/dev/null

text='echo x😀🚀中文é'
corral pty send "$id" "$text"
tmx send-keys -l "$text"
corral pty wait "$id" --regex '^\$ e' --timeout 15s >/dev/null
want=$(wcswidth "\$ $text")
wait_until 15 output_is "$want" cursor_col "$id"
assert_eq "$(cursor_col "$id")" "$want" "cursor after the typed text"
wait_until 15 sh -c "[ \"\$(tmux -S $TMUX_SOCKET capture-pane -p | head -1)\" = \"\$(corral pty screen $id | head -1)\" ]"

# Backspace over the combined e, then over a CJK character; insert after an emoji.
corral pty send "$id" --key BSpace --key BSpace --key Left
tmx send-keys BSpace BSpace Left
corral pty send "$id" Q
tmx send-keys -l Q
corral pty wait "$id" --regex '^\$ .*Q' --timeout 15s >/dev/null
after='$ echo x😀🚀Q'
want=$(wcswidth "$after")
wait_until 15 output_is "$want" cursor_col "$id"
assert_eq "$(first_row "$id")" '$ echo x😀🚀Q中' "the line after the edits"
wait_until 15 sh -c "[ \"\$(tmux -S $TMUX_SOCKET capture-pane -p | head -1)\" = \"\$(corral pty screen $id | head -1)\" ]"
wait_until 15 sh -c "[ \"\$(tmux -S $TMUX_SOCKET display -p '#{cursor_x}')\" = $want ]"
corral pty close "$id" >/dev/null
