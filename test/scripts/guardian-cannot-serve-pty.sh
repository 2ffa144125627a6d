# A terminal session whose guardian cannot do its job (syscall faults
# injected with `strace -e inject=`, only into the guardian): the end is
# never invented (no "killed by SIGKILL" while the program runs on), it is
# "end unknown" with the reason, said on stderr by `pty close`, and nothing
# of the tree is left running: the guardian that cannot write ends its tree
# itself, and the agent ends what it can still identify.
. "$SCRIPT_LIB"

guardian_under_strace '$CORRALTEST_INJECT'

gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}
all_gone() {
  local f
  for f in main.pid bg.pid esc.pid; do [[ ! -s $f ]] || gone "$(cat "$f")" || return 1; done
}
# The program, a background child, and an escapee in its own session; then $1 (its last command).
tree() {
  echo "echo \$\$ > main.pid; sleep 303 & echo \$! > bg.pid; setsid sh -c 'echo \$\$ > esc.pid; exec sleep 305' & $1"
}
# open_session INJECT LAST-COMMAND [FILE]: a new agent (the guardian wrapper reads the fault from
# its environment); waits until the program wrote FILE (default: the escapee's pid, the last).
open_session() {
  echo "case: $1 $2"
  corral agent stop --force >/dev/null 2>&1 || true
  rm -f main.pid bg.pid esc.pid
  CORRALTEST_INJECT="$1" corral pty open --name s -- bash --norc -c "$(tree "$2")" >/dev/null
  wait_until 60 test -s "${3:-esc.pid}"
}

# Every write from the third on fails (the ready line and the welcome get through):
# the close cannot be answered; the guardian ends the tree and says so by its status.
open_session "-e inject=write:error=EIO:when=3+" "exec sleep 304"
corral pty close s > close.out 2> close.err
assert_contains "$(cat close.out)" "end unknown: supervisor lost" "write: the end is not invented"
assert_contains "$(cat close.err)" "corral: session 1: end unknown: supervisor lost (guardian could not write to its owner" "write: said on stderr"
wait_until 60 all_gone

# The same while the program writes: the session ends at once, unknown, and nothing runs on.
# (the tree may be ended before its escapee starts: only the program's own pid is waited for)
open_session "-e inject=write:error=EIO:when=3+" 'while :; do echo flood; sleep 0.1; done' main.pid
wait_until 60 output_is false sh -c "corral pty list --json | jq '.sessions[0].alive'"
exit_facts=$(corral pty list --json | jq -c '.sessions[0].exit')
assert_eq "$(jq -c '[.code, .signal]' <<<"$exit_facts")" "[null,null]" "write+flood: no invented status"
assert_contains "$(jq -r '.supervisorLost.cause' <<<"$exit_facts")" "could not write to its owner"
wait_until 60 all_gone

# waitpid fails with ECHILD: the end is unknown, with the reason, on stderr too.
open_session "-e inject=wait4:error=ECHILD" "exec sleep 304"
corral pty close s > close.out 2> close.err
assert_contains "$(cat close.err)" "corral: session 1: end unknown: the guardian could not learn the exit status (wait4 failed: No child processes)"
wait_until 60 all_gone

# /proc cannot be opened by the guardian (its census goes by the children files): the close still ends everything.
open_session "-P /proc -e trace=openat -e inject=openat:error=EACCES" "exec sleep 304"
corral pty close s > close.out 2> close.err
wait_until 60 all_gone

assert_eq "$(corral reap --all 2>&1 | grep -c 'receipt uncertain' || true)" 0 "reap finds nothing uncertain"
corral agent stop --force >/dev/null
