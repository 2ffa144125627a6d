# A reader that goes away (`corral pty screen 1 | head -1`, a pager quit
# early) ends corral quietly, as it ends `cat` or any filter: no message on
# stderr, status 141 (what the shell reports for a process SIGPIPE ended).
# The JavaScript CLI printed a stack trace (`Error: write EPIPE`) and exited
# 1; the native client always died of SIGPIPE. Both doors end alike now.
# collect keeps its own rule: it stops printing and keeps the child's status.
. "$SCRIPT_LIB"
command -v python3 >/dev/null || skip "python3 is not installed"

# into_closed_pipe CMD...: runs CMD with stdout a pipe whose read end is
# already closed (no race with a reader that might still be there); prints
# the status as a shell reports it, and CMD's stderr.
into_closed_pipe() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
read_end, write_end = os.pipe()
os.close(read_end)
done = subprocess.run(sys.argv[1:], stdout=write_end, stderr=subprocess.PIPE)
status = 128 - done.returncode if done.returncode < 0 else done.returncode
print(status)
sys.stdout.write(done.stderr.decode(errors="replace"))
PY
}

s=$(corral pty open -- sh)
corral pty wait "$s" --stable 100ms --timeout 30s >/dev/null

# Served by the agent through the native client, and handed to the JavaScript CLI
# (completions, probe, help) through the bin; all of them through the JavaScript door.
for words in "pty screen $s" "pty list --json" "completions bash" "probe" "pty --help"; do
  read -ra argv <<<"$words"
  got=$(into_closed_pipe "$(command -v corral)" "${argv[@]}")
  assert_eq "$got" "141" "corral $words into a closed pipe: status 141 and nothing on stderr"
done

# A reader that takes a line and goes: the first line, and nothing on stderr.
assert_eq "$(corral completions bash 2>"$SCRIPT_TMP/err" | head -1 | cut -c1-2)" "# " "the first line of the completions"
assert_eq "$(cat "$SCRIPT_TMP/err")" "" "nothing on stderr after head took its line"

# collect stops printing when its reader goes, and keeps the child's status.
got=$(into_closed_pipe "$(command -v corral)" collect -- sh -c 'seq 1 100000; exit 3')
assert_eq "$got" "3" "collect into a closed pipe: the child's status, nothing on stderr"
corral pty close "$s" >/dev/null
