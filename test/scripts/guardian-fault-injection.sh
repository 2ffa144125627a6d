# Syscall faults injected into the guardian with `strace -e inject=` (only
# the guardian is traced: CORRAL_GUARDIAN_BIN points at a wrapper that execs
# it under strace, without -f, so the child's own syscalls are untouched).
# For each fault: corral finishes in bounded time, reports it on stderr, and
# leaves nothing running (the harness checks every process of the script,
# and each case checks its own tree's pids, setsid escapee included).
. "$SCRIPT_LIB"

guardian_under_strace '$CORRALTEST_INJECT'

gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}

# A tree: the child, a grandchild in its group, an escapee in its own session.
TREE='echo $$ > child.pid; sleep 300 & echo $! > grandchild.pid; setsid sh -c "echo \$\$ > escapee.pid; exec sleep 301" & wait'

# inject CASE STRACE-ARGS CORRAL-ARGS...: runs corral with the fault; sets $status, $err, $out.
inject() {
  local name=$1 args=$2
  shift 2
  rm -f child.pid grandchild.pid escapee.pid
  set +e
  # The outer bound only catches a hang (SIGKILL, 137); corral's own statuses are checked below.
  CORRALTEST_INJECT="$args" timeout -s KILL 120 corral "$@" > "$name.out" 2> "$name.err"
  status=$?
  set -e
  out=$(cat "$name.out")
  err=$(cat "$name.err")
  [[ $status -ne 137 ]] || fail "$name: corral did not finish within 120 s (stderr: $err)"
  local p
  for f in child.pid grandchild.pid escapee.pid; do
    [[ -s $f ]] || continue
    p=$(cat "$f")
    gone "$p" || fail "$name: $f ($p) still runs: $(tr '\0' ' ' < "/proc/$p/cmdline")"
  done
}

# pidfd_send_signal refused (a seccomp filter would): kill(2) instead, the tree still goes.
inject pidfd "-e trace=pidfd_send_signal -e inject=pidfd_send_signal:error=EPERM" run --timeout 5s -- bash -c "$TREE"
assert_eq "$status" 124 "pidfd: the timeout still ends the tree"
assert_contains "$err" "pidfd_send_signal failed (Operation not permitted)" "pidfd: the fault is reported"
[[ -s escapee.pid ]] || fail "pidfd: the tree did not start"

# /proc cannot be listed: the census goes by descent (children files) and still finds the escapee.
inject proc "-P /proc -e trace=openat -e inject=openat:error=EACCES" run --timeout 5s -- bash -c "$TREE"
assert_eq "$status" 124 "proc: the timeout still ends the tree"
assert_contains "$err" "reading /proc for the census" "proc: the fault is reported"
[[ -s escapee.pid ]] || fail "proc: the tree did not start"

# poll always fails with EINTR: the loop neither spins nor stops; the child's status comes through.
inject poll "-e inject=/^p?poll$:error=EINTR" run -- sh -c 'echo through; exit 3'
assert_eq "$status" 3 "poll: the child's status"
assert_eq "$out" "through" "poll: the child's output"
assert_contains "$err" "poll failed (Interrupted system call)" "poll: the fault is reported"

# ... and corral still answers SIGTERM promptly, tree and all.
rm -f child.pid grandchild.pid escapee.pid
CORRALTEST_INJECT="-e inject=/^p?poll$:error=EINTR" corral run -- bash -c "$TREE" 2> poll-term.err &
corral_pid=$!
wait_until 60 test -s escapee.pid
kill -TERM "$corral_pid"
set +e
timeout -s KILL 120 tail --pid="$corral_pid" -f /dev/null
wait "$corral_pid"
status=$?
set -e
[[ $status -eq 143 || $status -eq 125 ]] || fail "poll+SIGTERM: status $status ($(cat poll-term.err))"
for f in child.pid grandchild.pid escapee.pid; do gone "$(cat $f)" || fail "poll+SIGTERM: $f still runs"; done

# wait4 always fails: the exit is reported unknown (125) with the reason, not waited for for ever.
inject wait4 "-e inject=wait4:error=EINTR" run -- sh -c 'exit 0'
assert_eq "$status" 125 "wait4: the exit status cannot be known"
assert_contains "$err" "wait4 failed (Interrupted system call)" "wait4: the fault is reported"

# Every read from the third on fails (the first two: the owner's auth, the exec check):
# the output is not claimed complete, and the tree is gone even though the guardian
# can read nothing at all any more (corral finishes the job itself).
inject read "-e inject=read:error=EIO:when=3+" collect --json --timeout 5s -- bash -c "seq 1 20000; $TREE"
assert_contains "$out" '"outputComplete":false' "read: output is not complete"
assert_contains "$err" "read failed (Input/output error)" "read: the fault is reported"
[[ -s escapee.pid ]] || fail "read: the tree did not start"

# Every write from the third on fails (the first: the ready line; then the
# first frames): the guardian loses its owner and corral reports the loss.
inject write "-e inject=write:error=EIO:when=3+" collect --json --timeout 5s -- bash -c "seq 1 20000; $TREE"
assert_contains "$out" '"outputComplete":false' "write: output is not complete"
assert_contains "$err" "corral: supervisor lost" "write: the loss is reported"
