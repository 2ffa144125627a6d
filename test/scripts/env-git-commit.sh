# `git commit` under `corral run` with the identity in GIT_AUTHOR_*/GIT_COMMITTER_*:
# those names are not credentials (only whole words like TOKEN or AUTH are), so
# the commit works; a real token in the environment is still not passed.
. "$SCRIPT_LIB"
command -v git >/dev/null || skip "git is not installed"

export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.com"
export GIT_COMMITTER_NAME="Cy Committer" GIT_COMMITTER_EMAIL="cy@example.com"
export GITHUB_TOKEN="ghp_notforchildren" AWS_REGION="eu-west-1"
# No global or system git config may supply the identity instead.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME="$SCRIPT_TMP"

git init -q repo
echo hello > repo/file
corral run --cwd repo -- git add file
corral run --cwd repo -- git commit -q -m "first commit"
assert_eq "$(git -C repo log -1 --format='%an <%ae> / %cn <%ce>')" \
  "Ada Author <ada@example.com> / Cy Committer <cy@example.com>" "the identity reached git"

# What stays and what goes, as the command sees it.
seen=$(corral run -- sh -c 'echo "${AWS_REGION:-unset} ${GITHUB_TOKEN:-unset}"')
assert_eq "$seen" "eu-west-1 unset" "AWS_REGION passes, GITHUB_TOKEN does not"

# A failing command says which variables it did not get (names, never values).
set +e
note=$(corral run -- sh -c 'exit 5' 2>&1 >/dev/null)
status=$?
set -e
assert_eq "$status" 5 "the command's status"
assert_contains "$note" "GITHUB_TOKEN"
assert_contains "$note" "--keep-env"
[[ "$note" != *ghp_notforchildren* ]] || fail "a value reached stderr"
