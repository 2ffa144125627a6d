# A person runs collect in a terminal: a one-line status (elapsed, bytes,
# lines, rate) while it runs, erased before the report.
. "$SCRIPT_LIB"
tmux_private

tmx new-session -d -x 120 -y 20 -- bash --norc --noprofile
tmx send-keys -l "PS1='$ '; corral collect -- sh -c 'echo started; while [ ! -e $SCRIPT_TMP/done ]; do sleep 0.05; done; echo finished'; echo RC=\$?"
tmx send-keys Enter
screen() { tmx capture-pane -p; }
status_shown() { screen | grep -Eq '^corral: [0-9]+s, 8 bytes, 1 line, '; }
wait_until 60 status_shown
touch "$SCRIPT_TMP/done"
finished() { screen | grep -q '^RC=0'; }
wait_until 60 finished
final=$(screen)
assert_contains "$final" $'started\nfinished\nRC=0'
[[ "$final" != *"corral: "* ]] || fail "the status line was not erased: $final"
