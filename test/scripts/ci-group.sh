# --group folds a step in the CI log: GitHub Actions, GitLab, or a plain title.
. "$SCRIPT_LIB"
unset GITHUB_ACTIONS GITLAB_CI

gh=$(GITHUB_ACTIONS=true corral collect --group "unit tests" -- echo passed)
assert_eq "$gh" $'::group::unit tests\npassed\n::endgroup::'

gl=$(GITLAB_CI=true corral collect --group "unit tests" -- echo passed)
[[ "$gl" == $'\e[0Ksection_start:'*':corral_unit_tests_'*$'[collapsed=true]\r\e[0Kunit tests\npassed\n\e[0Ksection_end:'* ]] ||
  fail "GitLab section markers: $(printf %q "$gl")"

plain=$(corral collect --group "unit tests" -- echo passed)
assert_eq "$plain" $'== unit tests ==\npassed'
