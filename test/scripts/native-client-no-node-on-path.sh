# A cron job's PATH has no node on it (a node from nvm, a bare PATH): the
# native client hands what the agent does not serve to the node corral was
# installed with (native/build/js-runtime), so `run`, a first `pty open`
# (which starts the agent) and the rest work; a runtime named by
# CORRAL_JS_RUNTIME that is not there gets one line saying which.
. "$SCRIPT_LIB"

client=$(readlink -f "$(command -v corral)")
head -c 4 "$client" | grep -q ELF || skip "corral is the JavaScript CLI here (no native client built): nothing hands over"
[ -s "$CORRAL_REPO/native/build/js-runtime" ] || fail "the build recorded no runtime in native/build/js-runtime"

bare=$PWD/bare-path
mkdir "$bare"
ln -s "$client" "$bare/corral"
cron() { /usr/bin/env -u CORRAL_JS_RUNTIME PATH="$bare" "$@"; }
cron /bin/sh -c 'command -v node' && fail "node is still on the bare PATH"

out=$(cron corral run -- /bin/echo handed-over) || fail "corral run under a bare PATH exited $?"
assert_eq "$out" "handed-over" "run's output under a bare PATH"

cron corral pty open --name cronny -- /bin/cat > /dev/null || fail "pty open (it starts the agent) under a bare PATH exited $?"
cron corral pty send cronny from-cron --key Enter
assert_eq "$(cron corral pty wait cronny --text from-cron --timeout 30s)" "text" "the wait through the served door"
cron corral pty close cronny > /dev/null

set +e
err=$(cron /usr/bin/env CORRAL_JS_RUNTIME=/nonexistent/node corral run -- /bin/true 2>&1)
status=$?
set -e
assert_eq "$status" 125 "a runtime that is not there"
assert_eq "$err" "corral: cannot start the JavaScript CLI (/nonexistent/node $(dirname "$client")/corral.cjs): No such file or directory" "the line that says which"
