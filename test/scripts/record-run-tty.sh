# run --tty --record: a program run in a person's terminal is recorded as
# asciicast v2, typed input only with --record-input, and plays back with
# asciinema. Driven through a private tmux server as the person's terminal.
. "$SCRIPT_LIB"
tmux_private

cat >prog.sh <<'PROG'
printf '\033[1;31mhello\033[0m, what is your name? '
read -r name
printf 'nice to meet you, %s\n' "$name"
PROG

tmx -f /dev/null new-session -d -s t -x 80 -y 24 bash --norc --noprofile
tmx send-keys -t t "corral run --tty --record '$PWD/run.cast' --record-input -- sh prog.sh; echo \"exit=\$?\" >status" Enter
wait_until 60 grep -q 'what is your name' run.cast
tmx send-keys -t t -l 'Ada'
tmx send-keys -t t Enter
wait_until 60 test -s status
assert_eq "$(cat status)" "exit=0"

header=$(head -n 1 run.cast)
assert_contains "$header" '"version":2'
assert_contains "$header" '"width":80'
assert_contains "$header" '"height":24'
assert_contains "$header" '"title":"sh prog.sh"'
# The agent finishes writing the file just after the job ends.
wait_until 30 grep -q 'nice to meet you, Ada' run.cast
grep -q '"i", "Ada' run.cast || fail "typed input is recorded with --record-input: $(cat run.cast)"
assert_eq "$(stat -c %a run.cast)" 600

if command -v asciinema >/dev/null; then
  played=$(script -qec "asciinema cat run.cast" /dev/null </dev/null)
  assert_contains "$played" "nice to meet you, Ada"
fi

# Without --record-input nothing typed is kept (input may hold secrets).
rm -f status
tmx send-keys -t t "corral run --tty --record '$PWD/quiet.cast' -- sh prog.sh; echo \"exit=\$?\" >status" Enter
wait_until 60 grep -q 'what is your name' quiet.cast
tmx send-keys -t t -l 'secret'
tmx send-keys -t t Enter
wait_until 60 test -s status
wait_until 30 grep -q 'nice to meet you, secret' quiet.cast
if grep -q '"i",' quiet.cast; then fail "input events without --record-input"; fi

set +e
err=$(corral run --record x.cast -- true 2>&1)
status=$?
set -e
assert_eq "$status" 2 "--record without --tty is a usage error"
assert_contains "$err" "go with --tty"
