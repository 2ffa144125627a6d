# Durations as a CI author types them: days and compounds, in flags and in
# the config file, with one clear error for a bad one.
. "$SCRIPT_LIB"

corral run --timeout 1d -- true
corral run --timeout 1h30m --grace 2m30s -- true
corral collect --timeout 1d12h -- echo ok >/dev/null

set +e
corral run --timeout 1s500ms -- sleep 300
status=$?
err=$(corral run --timeout 30m1h -- true 2>&1)
bad=$?
set -e
assert_eq "$status" 124 "a compound timeout fires"
assert_eq "$bad" 2 "units out of order are a usage error"
assert_contains "$err" "--timeout"
assert_contains "$err" "1h30m"

mkdir -p cfg/corral
printf 'grace: 1m30s\n' >cfg/corral/config.yaml
shown=$(XDG_CONFIG_HOME="$PWD/cfg" corral config)
assert_contains "$shown" "grace: 1m30s"
