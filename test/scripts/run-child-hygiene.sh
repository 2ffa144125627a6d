# A command starts clean, whatever started corral: exactly descriptors 0, 1
# and 2 (none of the caller's, none of the guardian's), default signal
# dispositions (the guardian itself ignores SIGPIPE, SIGINT and others, and
# the caller here ignores SIGPIPE and SIGINT too) and an empty signal mask.
# The same for run, collect and a background job.
. "$SCRIPT_LIB"

# `ls /proc/self/fd` lists ls's own descriptors: 0, 1, 2 and the one it reads
# the directory through (a link to /proc/PID/fd), nothing else.
descriptors() {
  awk 'NR > 1 && $NF !~ /^\/proc\/[0-9]+\/fd$/ { print $(NF - 2) }' "$1" | sort -n | tr '\n' ' '
}
signals() {
  grep -E '^Sig(Ign|Blk):' "$1" | tr -s '\t ' ' ' | tr '\n' ' '
}
clean="SigBlk: 0000000000000000 SigIgn: 0000000000000000 "

(
  trap '' PIPE INT
  corral run -- ls -l /proc/self/fd >run-fds 5</dev/null 7>/dev/null
  corral run -- grep -E '^Sig(Ign|Blk):' /proc/self/status >run-sig
  corral collect -- ls -l /proc/self/fd >collect-fds 5</dev/null
  corral collect -- grep -E '^Sig(Ign|Blk):' /proc/self/status >collect-sig
)
assert_eq "$(descriptors run-fds)" "0 1 2 " "run: the child's descriptors ($(cat run-fds))"
assert_eq "$(signals run-sig)" "$clean" "run: the child's signals"
assert_eq "$(descriptors collect-fds)" "0 1 2 " "collect: the child's descriptors ($(cat collect-fds))"
assert_eq "$(signals collect-sig)" "$clean" "collect: the child's signals"

corral run --bg --name fds -- ls -l /proc/self/fd >/dev/null
corral run --bg --name sig -- grep -E '^Sig(Ign|Blk):' /proc/self/status >/dev/null
corral jobs wait fds sig >/dev/null
corral collect --job fds >job-fds
corral collect --job sig >job-sig
assert_eq "$(descriptors job-fds)" "0 1 2 " "a job: the child's descriptors ($(cat job-fds))"
assert_eq "$(signals job-sig)" "$clean" "a job: the child's signals"
corral reap >/dev/null
