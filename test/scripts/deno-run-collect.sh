# run and collect under Deno, as a script would call them: Deno's bundles
# answer node:path, node:os and the timers themselves (lib/runtime/deno/builtins/,
# lib/runtime/timer.ts), so each thing a user sees of those answers is
# checked here end to end: a program found by a relative path and on $PATH,
# the config file's place, --timeout ending the whole tree, a signal's exit
# status, the guardian's owner socket under an odd or too long $TMPDIR (and
# nothing left there), line limits with a spill.
. "$SCRIPT_LIB"

deno="$CORRAL_REPO/node_modules/.bin/deno"
[[ -x $deno ]] || fail "deno is a dev dependency: $deno is missing (npm ci)"
dcorral() { "$deno" run --allow-all --quiet "$CORRAL_REPO/dist/corral.mjs" "$@"; }

status_of() { set +e; "$@"; local rc=$?; set -e; echo "$rc"; }

assert_eq "$(status_of dcorral run -- sh -c 'exit 7')" 7 "run passes the exit status on"

mkdir -p tools
printf '#!/bin/sh\necho "hello from $0 $1"\n' > tools/hello.sh
chmod +x tools/hello.sh
assert_eq "$(dcorral run -- ./tools/hello.sh rel)" "hello from $PWD/tools/hello.sh rel" "a program by a relative path"
assert_eq "$(PATH="$PWD/tools:$PATH" dcorral run -- hello.sh onpath)" "hello from $PWD/tools/hello.sh onpath" "a program on \$PATH"
assert_eq "$(status_of dcorral run -- ./tools/missing.sh 2>err)" 127 "a missing program"
assert_contains "$(cat err)" "tools/missing.sh" "the missing program is named"

# The config file is $XDG_CONFIG_HOME/corral/config.yaml: a broken one is named by that path.
mkdir -p xdg/corral
echo 'collect: [' > xdg/corral/config.yaml
assert_eq "$(XDG_CONFIG_HOME="$PWD/xdg" status_of dcorral collect -- true 2>err)" 2 "a broken config file is a usage error"
assert_contains "$(cat err)" "$PWD/xdg/corral/config.yaml" "the config file's path"

# --timeout (the core timer) ends the tree, grandchild too, with status 124.
assert_eq "$(status_of dcorral run --timeout 1s -- sh -c 'sleep 300 & echo $! > grandchild.pid; wait')" 124 "--timeout's status"
wait_until 30 bash -c '! kill -0 "$(cat grandchild.pid)" 2>/dev/null'

# A child killed by a signal: 128 + its number from the signal table.
assert_eq "$(status_of dcorral run -- sh -c 'kill -USR1 $$')" 138 "SIGUSR1 is 10 here"
assert_eq "$(status_of dcorral collect -- sh -c 'kill -TERM $$')" 143 "SIGTERM is 15"

# The guardian's owner socket goes below $TMPDIR (a trailing slash is fine) or,
# when that would not fit in a socket path, below /tmp; nothing is left behind.
mkdir -p tmp-a
assert_eq "$(TMPDIR="$PWD/tmp-a/" dcorral collect -- echo slash)" "slash" "TMPDIR with a trailing slash"
long="$PWD/$(printf 'd%.0s' {1..90})"
mkdir -p "$long"
assert_eq "$(TMPDIR="$long" dcorral collect -- echo long)" "long" "a TMPDIR too long for a socket path"
assert_eq "$(find tmp-a "$long" -mindepth 1 | wc -l)" 0 "nothing left in either TMPDIR"

# Line limits with a spill: the tail starts on a line, the spill is whole.
dcorral collect --head-lines 1 --tail-lines 2 --spill all.log -- seq 1 100000 > shown 2>report
assert_eq "$(sed -n '1p;3,4p' shown)" "$(printf '1\n99999\n100000')" "head and tail lines"
assert_contains "$(sed -n 2p shown)" "99997 lines" "the marker between them counts the lines left out"
assert_eq "$(sha256sum < all.log.stdout)" "$(seq 1 100000 | sha256sum)" "the spill holds every byte"
