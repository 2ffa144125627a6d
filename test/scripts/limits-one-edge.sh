# One limit for the bytes kept in memory, checked at the edge: --max-bytes
# and --head-bytes (collect, run --bg, pty exec) and the config keys of those names
# take at most 1GiB, on every backend. Past it: a usage error (status 2) and
# one line naming the limit, before anything runs; never the guardian's own
# complaint (status 125).
. "$SCRIPT_LIB"

check_refused() { # check_refused FLAG-OR-KEY COMMAND...: status 2, one line naming the limit, nothing run
  local what=$1 status
  shift
  set +e
  "$@" > out.txt 2> err.txt
  status=$?
  set -e
  assert_eq "$status" 2 "$* exits 2"
  assert_eq "$(wc -l < err.txt)" 1 "one line: $(cat err.txt)"
  assert_contains "$(cat err.txt)" "corral: "
  assert_contains "$(cat err.txt)" "$what"
  assert_contains "$(cat err.txt)" "at most 1GiB"
  [[ "$(cat err.txt)" != *guardian* ]] || fail "the guardian's own words reached the user: $(cat err.txt)"
  [[ ! -e ran ]] || fail "$* ran its command"
}

for backend in always never; do
  export CORRAL_GUARDIAN=$backend
  check_refused --max-bytes corral collect --max-bytes 2G -- touch ran
  check_refused --head-bytes corral collect --head-bytes 1025M -- touch ran
  check_refused --max-bytes corral run --bg --max-bytes 3G -- touch ran
  check_refused --head-bytes corral run --bg --head-bytes 2GiB -- touch ran
  # The limit itself is accepted, on each backend.
  assert_eq "$(corral collect --max-bytes 1G --head-bytes 1GiB -- echo kept)" "kept"
done

# pty exec (a command in a session) keeps its output under the same limit.
check_refused --max-bytes corral pty exec --max-bytes 2G nosuch 'touch ran'

printf 'max-bytes: 2G\n' > config.yaml
check_refused max-bytes env CORRAL_CONFIG="$SCRIPT_TMP/config.yaml" corral collect -- touch ran
printf 'head-bytes: 1025M\n' > config.yaml
check_refused head-bytes env CORRAL_CONFIG="$SCRIPT_TMP/config.yaml" corral collect -- touch ran
printf 'max-bytes: 1G\n' > config.yaml
assert_eq "$(CORRAL_CONFIG="$SCRIPT_TMP/config.yaml" corral collect -- echo kept)" "kept"
