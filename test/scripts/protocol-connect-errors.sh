# What a script driving `corral connect` sees when it gets a request wrong:
# an unknown op is answered with every op there is, a bad field with its
# name and what would be right, and the connection goes on serving. No
# request at all (</dev/null, a closed stdin) ends at once: status 0, no output.
. "$SCRIPT_LIB"

replies=$(printf '%s\n' \
  '{"op":"nope","ref":1}' \
  '{"op":"resize","session":"x","cols":"80","rows":24,"ref":2}' \
  '{"op":"open","argv":[],"ref":3}' \
  '{"op":"wait","session":"x","regex":"(","ref":4}' \
  '{"op":"list","ref":5}' | corral connect)

unknown=$(printf '%s\n' "$replies" | jq -c 'select(.ref == 1) | .error')
assert_eq "$(jq -r .code <<<"$unknown")" unknown_op
ops=$(jq -r '.message | sub(".*use one of "; "")' <<<"$unknown")
for op in hello open send screen wait resize close list attach record watch agent-status agent-stop job-start jobs job-read fg bg reap; do
  assert_contains ", $ops," " $op," "unknown_op lists $op"
done

assert_eq "$(printf '%s\n' "$replies" | jq -r 'select(.ref == 2) | .error.message')" '"cols" must be an integer from 1 to 100000'
assert_eq "$(printf '%s\n' "$replies" | jq -r 'select(.ref == 3) | .error.message')" '"argv" must be a non-empty array of strings'
assert_contains "$(printf '%s\n' "$replies" | jq -r 'select(.ref == 4) | .error.code + " " + .error.message')" 'bad_request "regex":'
assert_eq "$(printf '%s\n' "$replies" | jq -c 'select(.ref == 5)')" '{"ref":5,"ok":true,"sessions":[]}'

# Nothing to ask: through the bin and through the JavaScript CLI (CORRAL_CLIENT=js), no reply, status 0.
assert_eq "$(corral connect </dev/null; echo "status $?")" "status 0" "connect with no input"
assert_eq "$(corral connect <&-; echo "status $?")" "status 0" "connect with stdin closed"
assert_eq "$(CORRAL_CLIENT=js corral connect </dev/null; echo "status $?")" "status 0" "the JavaScript CLI's connect with no input"

corral agent stop >/dev/null
