# A guardian that can open nothing any more (every openat fails with EACCES
# once it runs: /proc, its children files, everything, injected with
# `strace -e inject=` into the guardian only): its census cannot see a
# setsid escapee it adopted as subreaper, and says so, and it holds such
# children instead of handing them to init. Its owner, which can read
# /proc, ends them by their parent: a terminal session's `pty close` and a
# `run` ended by its timeout leave nothing running, and neither `reap` nor
# `run` has anything uncertain to say.
. "$SCRIPT_LIB"

guardian_under_strace -e trace=openat -e inject=openat:error=EACCES:when=4+

gone() { # gone PID: no such process, or a zombie
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) || return 0
  [[ -z "$state" || "$state" == Z ]]
}

# The program, a background child, and an escapee in its own session (the guardian's openat
# calls 1-3 are its start: the loader's and the program's; from the 4th on, all fail).
TREE="echo \$\$ > main.pid; sleep 303 & echo \$! > bg.pid; setsid sh -c 'echo \$\$ > esc.pid; exec sleep 305' & exec sleep 304"
corral pty open --name s -- bash --norc -c "$TREE" >/dev/null
wait_until 60 test -s esc.pid
wait_until 60 test -s main.pid
wait_until 60 test -s bg.pid
corral pty close s >/dev/null
for f in main.pid bg.pid esc.pid; do wait_until 60 gone "$(cat "$f")"; done
assert_eq "$(corral reap --all 2>&1 | grep -c 'receipt uncertain' || true)" 0 "reap finds nothing uncertain"
corral agent stop --force >/dev/null

# The same tree under a plain `run`, ended by its timeout.
rm -f main.pid bg.pid esc.pid
set +e
corral run --timeout 3s -- bash -c "$TREE" 2> run.err
status=$?
set -e
assert_eq "$status" 124 "run: the timeout's status"
for f in main.pid bg.pid esc.pid; do wait_until 60 gone "$(cat "$f")"; done
if grep -q "could not confirm gone" run.err; then fail "run: uncertain although everything went: $(cat run.err)"; fi
