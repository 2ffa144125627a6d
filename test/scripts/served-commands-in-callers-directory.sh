# The commands the agent answers for the installed `corral` (pty open and
# run --bg once an agent runs, collect --job) act in the caller's directory
# and environment, never the agent's: the agent here runs from /, the
# script from its own directory. CORRAL_CLIENT=native makes the client fail
# rather than hand a command to the JavaScript CLI, so each answer below
# came from the agent (a --facts file is the JavaScript CLI's, by design).
. "$SCRIPT_LIB"

(cd / && corral agent start >/dev/null)
mkdir -p sub
export MARK=from-the-caller

CORRAL_CLIENT=native corral pty open --name here --cols 250 -- sh -c 'echo "$(pwd)|$MARK|end"; exec cat' >/dev/null
CORRAL_CLIENT=native corral pty open --name below --cols 250 --cwd sub -- sh -c 'echo "$(pwd)|$MARK|end"; exec cat' >/dev/null
CORRAL_CLIENT=native corral pty wait here --text '|end' >/dev/null
CORRAL_CLIENT=native corral pty wait below --text '|end' >/dev/null
assert_eq "$(corral pty screen here | head -1)" "$PWD|from-the-caller|end" "pty open starts in the caller's directory"
assert_eq "$(corral pty screen below | head -1)" "$PWD/sub|from-the-caller|end" "pty open --cwd sub is the caller's sub"
corral pty close here >/dev/null
corral pty close below >/dev/null

job=$(CORRAL_CLIENT=native corral run --bg --cwd sub -- sh -c 'echo "$(pwd)|$MARK"')
assert_eq "$(CORRAL_CLIENT=native corral collect --job "$job" --follow 2>/dev/null)" "$PWD/sub|from-the-caller" "run --bg --cwd sub"

# A facts file is named relative to the caller: the JavaScript CLI writes it here.
corral collect --job "$job" --follow --facts facts.json >/dev/null 2>&1
assert_eq "$(jq .code facts.json)" 0 "collect --job --facts writes facts.json in the caller's directory"
corral agent stop --force >/dev/null
