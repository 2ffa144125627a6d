#!/usr/bin/env bash
# Makes the screen picture the README shows (test/pictures/screen.svg): vim
# with syntax colours editing a small script, drawn by `pty screen --svg`.
# Usage: bash test/pictures/regenerate.sh [OUT.svg]   (after npm run build:ts)
# Runs on a private agent; test/scripts/picture-readme.sh runs it too.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$repo/test/pictures/screen.svg}
case $out in /*) ;; *) out=$PWD/$out ;; esac
if ! command -v corral >/dev/null; then corral() { node "$repo/dist/corral.mjs" "$@"; }; fi
work=$(mktemp -d)
export CORRAL_STATE_DIR=$work/state
trap 'corral agent stop --force >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

cat >"$work/deploy.sh" <<'SCRIPT'
#!/bin/sh
# Copy the build to every host, in parallel.
set -eu
hosts="alpha beta gamma"
for host in $hosts; do
  if ! scp -q build.tar.gz "$host:/srv/app/"; then
    echo "copy to $host failed" >&2
    exit 1
  fi &
done
wait
echo "deployed to $(echo $hosts | wc -w) hosts"
SCRIPT

id=$(corral pty open --name readme --cols 72 --rows 18 --cwd "$work" --env HOME="$work" -- \
  vim -u NONE -N -i NONE -n --cmd 'set background=dark' -c 'syntax on' -c 'set number ruler laststatus=2' deploy.sh)
corral pty wait "$id" --text 'deployed to' --timeout 30s >/dev/null
corral pty send "$id" --key 6 --key G --key w --key w >/dev/null
corral pty send "$id" ':set cursorline' --key Enter >/dev/null
corral pty wait "$id" --stable 500ms --timeout 30s >/dev/null
corral pty screen "$id" --svg "$out"
corral pty close "$id" --force >/dev/null
echo "$out"
