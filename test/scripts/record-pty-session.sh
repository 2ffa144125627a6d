# Debugging a terminal program by hand: record a session from its start,
# look at its colours, take a picture, start a second recording later, and
# play both back with asciinema.
. "$SCRIPT_LIB"

corral pty open --name demo --record demo.cast --cols 60 --rows 10 -- bash --norc --noprofile >/dev/null
corral pty wait demo --regex '[$#] $' --timeout 20s >/dev/null
corral pty send demo "printf '\\e[1;31mALERT\\e[0m disk \\e[42mfull\\e[0m\\n'" --key Enter
corral pty wait demo --regex '^ALERT disk full$' --timeout 20s >/dev/null

ansi=$(corral pty screen demo --ansi)
assert_contains "$ansi" $'\e[0;1;31mALERT\e[0m disk \e[0;42mfull\e[0m'
corral pty screen demo --svg demo.svg --html demo.html
assert_contains "$(cat demo.svg)" 'fill="#4e9a06"'
assert_contains "$(cat demo.html)" '<span style="background:#4e9a06">full</span>'

# A new recording of the same session, started late, replaces the first (whose
# file ends there) and opens with the screen as it is.
assert_eq "$(corral pty record demo late.cast)" "$PWD/late.cast"
corral pty send demo 'echo second part' --key Enter
corral pty wait demo --regex '^second part$' --timeout 20s >/dev/null
# Recording again into the same file starts it over, and it stays well formed.
corral pty record demo late.cast >/dev/null
corral pty record demo --stop >/dev/null
[[ $(grep -c '"version":2' late.cast) == 1 ]] || fail "late.cast restarted in place holds one header: $(cat late.cast)"
corral pty record demo late.cast >/dev/null
corral pty record demo --stop >/dev/null
status=$(corral pty screen demo --json)
assert_contains "$status" '"recording":{"path":"'"$PWD"'/late.cast"'
assert_contains "$status" '"active":false'
corral pty send demo 'exit' --key Enter
corral pty wait demo --exit --timeout 20s >/dev/null

head -n 1 demo.cast | grep -q '"title":"bash --norc --noprofile"' || fail "header: $(head -n 1 demo.cast)"
if command -v asciinema >/dev/null; then
  played=$(script -qec "asciinema cat demo.cast" /dev/null </dev/null)
  assert_contains "$played" "ALERT"
  [[ "$played" != *"second part"* ]] || fail "the first recording ended when the second began"
  late=$(script -qec "asciinema cat late.cast" /dev/null </dev/null)
  assert_contains "$late" "ALERT"   # the screen as it was when the recording began
  assert_contains "$late" "second part"
fi
