# Node's corral keeps the compiled code of its hot commands in the per-user
# cache dir (README "Start-up"): written once, private, reused as it is, and
# off with Node's own switch.
. "$SCRIPT_LIB"

export CORRAL_CACHE_DIR="$SCRIPT_TMP/cache"
assert_eq "$(corral run -- echo first)" first "the first run works as ever"
cache=$(ls "$CORRAL_CACHE_DIR"/code-cache/run-*-node*.v8)
assert_eq "$(stat -c %a "$CORRAL_CACHE_DIR/code-cache")" 700 "the cache dir is the user's alone"
assert_eq "$(stat -c %a "$cache")" 600 "the cache file is the user's alone"

before=$(stat -c %i:%y "$cache")
assert_eq "$(corral run -- echo second)" second
assert_eq "$(stat -c %i:%y "$cache")" "$before" "a cache V8 accepts is reused, not rewritten"

# Each hot command has its own.
corral collect -- true 2>/dev/null
ls "$CORRAL_CACHE_DIR"/code-cache/collect-*-node*.v8 > /dev/null

export CORRAL_CACHE_DIR="$SCRIPT_TMP/off"
NODE_DISABLE_COMPILE_CACHE=1 corral run -- true
if ls "$CORRAL_CACHE_DIR"/code-cache/*.v8 > /dev/null 2>&1; then
  fail "NODE_DISABLE_COMPILE_CACHE=1 still wrote a code cache"
fi
