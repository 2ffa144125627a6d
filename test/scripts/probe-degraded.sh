# A script checking what this machine gives before relying on it: probe's
# exit status tells full guarantees (0) from the fallbacks (3), and --json
# names what is lost and the command that fixes it.
. "$SCRIPT_LIB"

corral probe >/dev/null   # the built guardian: status 0

# No guardian (pointed at a file that is not there): degraded, status 3.
set +e
out=$(CORRAL_GUARDIAN_BIN="$SCRIPT_TMP/no-such-guardian" corral probe)
status=$?
set -e
assert_eq "$status" 3 "probe without the guardian exits 3"
assert_contains "$out" "degraded: corral works here without the guardian; lost:"
assert_contains "$out" "  tty-jobs "
assert_contains "$out" "  escapee-kill "

set +e
json=$(CORRAL_GUARDIAN_BIN="$SCRIPT_TMP/no-such-guardian" corral probe --json)
set -e
lost=$(printf '%s' "$json" | node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(r.status, r.lost.map((g) => g.name).join(","))')
assert_eq "$lost" "degraded tty-jobs,escapee-kill,exact-stop-continue,pid-reuse-safe-signals,exit-drain"

# Everything still runs on the fallbacks.
set +e
CORRAL_GUARDIAN_BIN="$SCRIPT_TMP/no-such-guardian" corral run -- sh -c 'exit 5'
status=$?
set -e
assert_eq "$status" 5 "run works without the guardian"
