# The example of docs/shell-integration.md, run as written: one bash session
# clones a local repository, installs and tests it, each step's status
# checked; then the same against a repository whose tests fail.
. "$SCRIPT_LIB"
command -v git >/dev/null || skip "git is not installed"
command -v npm >/dev/null || skip "npm is not on PATH"

# The script as the page shows it: the sh block after "## Example".
awk '/^## Example/ { on = 1 } on && /^```sh$/ { grab = 1; next } grab && /^```$/ { exit } grab' \
  "$CORRAL_REPO/docs/shell-integration.md" > setup.sh
grep -q 'step "npm test"' setup.sh || fail "the example was not found in docs/shell-integration.md"

make_repo() { # make_repo DIR TEST-EXIT-STATUS
  mkdir -p "$1"
  printf '{"name":"demo","version":"1.0.0","scripts":{"test":"node -e \\"console.log(42); process.exit(%s)\\""}}\n' "$2" > "$1/package.json"
  printf '{"name":"demo","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"demo","version":"1.0.0"}}}\n' > "$1/package-lock.json"
  git -C "$1" init --quiet
  git -C "$1" add .
  git -C "$1" -c user.name=t -c user.email=t@example.invalid commit --quiet -m "demo $2"
}
make_repo good 0
make_repo bad 3

out=$(bash setup.sh "$PWD/good")
assert_contains "$out" "42" "npm test's output is shown"
assert_contains "$out" "demo 0 in $PWD/project" "the last step names the commit and the directory"

rm -rf project
st=0; err=$(bash setup.sh "$PWD/bad" 2>&1 >/dev/null) || st=$?
assert_eq "$st" 3 "the failing step's status is the script's"
assert_contains "$err" "step failed (3): npm test" "the failing step is named"
