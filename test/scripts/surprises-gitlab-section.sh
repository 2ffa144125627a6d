# A GitLab section's end carries the time the step ended, not its start: a
# step that runs into the next second shows a later section_end.
. "$SCRIPT_LIB"
unset GITHUB_ACTIONS

GITLAB_CI=true corral collect --group slow -- sh -c 's=$(date +%s); while [ "$(date +%s)" = "$s" ]; do sleep 0.05; done; echo ok' >log
start=$(grep -ao 'section_start:[0-9]*' log | cut -d: -f2)
end=$(grep -ao 'section_end:[0-9]*' log | cut -d: -f2)
[ -n "$start" ] && [ -n "$end" ] || fail "markers: $(od -c log | head)"
((end > start)) || fail "section_end $end is not after section_start $start"
