# pty exec in one fish session: cd, exports, statuses, bounded and spilled
# output, marks a program fakes, PS2, timeouts, an agent SIGKILLed between
# two commands (the steps are in exec-sequence.bash, shared by every shell).
shell=fish
. "$CORRAL_REPO/test/scripts/exec-sequence.bash"
