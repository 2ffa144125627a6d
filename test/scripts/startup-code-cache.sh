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

# A cache dir on a full disk: the command's output and status are untouched,
# nothing is said, and no half-written cache is left. Needs root for a tmpfs.
if [[ $(id -u) -eq 0 ]]; then
  mkdir tiny
  if mount -t tmpfs -o size=64k corral-test-cache "$SCRIPT_TMP/tiny" 2>mount.err; then
    trap 'umount "$SCRIPT_TMP/tiny" 2>/dev/null || umount -l "$SCRIPT_TMP/tiny" || true' EXIT
    export CORRAL_CACHE_DIR="$SCRIPT_TMP/tiny"
    set +e
    corral run -- sh -c 'echo still-here; exit 3' > full.out 2> full.err
    status=$?
    set -e
    assert_eq "$status" 3 "the child's status survives a full cache disk"
    assert_eq "$(cat full.out)" still-here
    assert_eq "$(cat full.err)" "" "a cache that does not fit is not worth a word"
    if ls tiny/code-cache/ | grep -q .; then
      fail "left in the full cache dir: $(ls tiny/code-cache/)"
    fi
  else
    skip_part "the full-disk part: cannot mount a tmpfs here: $(cat mount.err)"
  fi
else
  skip_part "the full-disk part: mounting a tmpfs needs root (running as uid $(id -u))"
fi
