# A user behind a company proxy sets NODE_EXTRA_CA_CERTS for every Node
# program. corral makes no TLS connection, so its own runtime starts without
# the file (Node 20 parses it at every start, and warns at exit when it is
# missing), while every program corral starts still gets the variable as the
# user set it: a foreground run, a collect, a job, a terminal session.
. "$SCRIPT_LIB"

# A path that does not exist: a Node that started with it says so on stderr.
export NODE_EXTRA_CA_CERTS=$PWD/no-such-bundle.pem

# The bin (the native client) is what moves the variable aside; a `corral`
# that starts Node itself (the JavaScript door) pays the parse and warns.
quiet_runtime=0
if [ "$(head -c 4 "$(command -v corral)" | od -An -c | tr -d ' ')" = '177ELF' ]; then quiet_runtime=1; else skip_part "corral is not the native client: its runtime reads the bundle"; fi
stderr_is_empty() {
  if [ "$quiet_runtime" = 1 ]; then assert_eq "$(cat err)" "" "$1"; fi
}

out=$(corral run -- sh -c 'printf "%s|%s\n" "$NODE_EXTRA_CA_CERTS" "${CORRAL_HELD_NODE_EXTRA_CA_CERTS-unset}"' 2>err)
assert_eq "$out" "$NODE_EXTRA_CA_CERTS|unset" "run's child gets the variable as set"
stderr_is_empty "no certificate warning from corral's runtime"

# In its place among the others: the child's environment lists names in the caller's order
# (through the bin; a `corral` that is a shell script, as the JavaScript door's is here, passes
# the environment in the shell's own order).
names() { awk 'BEGIN { RS = "\0" } { sub(/=.*/, ""); print }'; }
env -0 | names >caller-names
corral run -- env -0 | names >child-names
grep -Fxf child-names caller-names >caller-common
grep -Fxf caller-names child-names >child-common
if [ "$quiet_runtime" = 1 ]; then assert_eq "$(cat child-common)" "$(cat caller-common)" "the environment's order"; fi
grep -qx NODE_EXTRA_CA_CERTS child-common || fail "NODE_EXTRA_CA_CERTS missing from the child's environment"

out=$(corral collect -- printenv NODE_EXTRA_CA_CERTS 2>err)
assert_eq "$out" "$NODE_EXTRA_CA_CERTS" "collect's child"
stderr_is_empty ""

# A job: started by the agent with the caller's environment.
id=$(corral run --bg -- printenv NODE_EXTRA_CA_CERTS 2>err)
stderr_is_empty ""
corral jobs wait "$id" >/dev/null
assert_eq "$(corral collect --job "$id")" "$NODE_EXTRA_CA_CERTS" "a job's child"

# A terminal session, opened by the JavaScript CLI (the first open starts the agent).
corral pty open --name certs --wait-ready -- sh 2>err >/dev/null
stderr_is_empty ""
out=$(corral pty exec certs 'printf "%s|%s\n" "$NODE_EXTRA_CA_CERTS" "${CORRAL_HELD_NODE_EXTRA_CA_CERTS-unset}"')
assert_eq "$out" "$NODE_EXTRA_CA_CERTS|unset" "a session's shell"
corral pty close certs

# The agent itself started without it (whichever door started it): nothing in its log, nothing in its environment.
pid=$(cat "$CORRAL_STATE_DIR/agent.pid")
! tr '\0' '\n' <"/proc/$pid/environ" | grep -q '^NODE_EXTRA_CA_CERTS=' || fail "the agent started with NODE_EXTRA_CA_CERTS"
! grep -q 'extra certs' "$CORRAL_STATE_DIR/agent.log" || fail "the agent's runtime read the bundle: $(cat "$CORRAL_STATE_DIR/agent.log")"

# Unset stays unset, and an empty value stays empty.
out=$(env -u NODE_EXTRA_CA_CERTS corral run -- sh -c 'echo "${NODE_EXTRA_CA_CERTS-unset}"')
assert_eq "$out" "unset"
out=$(NODE_EXTRA_CA_CERTS= corral run -- sh -c 'echo "[${NODE_EXTRA_CA_CERTS-unset}]"' 2>err)
assert_eq "$out" "[]"
