# Jobs started at the same moment by several clients of one agent each get
# their own number: none replaces another in the table (a job that vanished
# from `corral jobs` while it ran, and `jobs wait` saying "no job").
. "$SCRIPT_LIB"

corral agent start >/dev/null
for i in 1 2 3 4 5 6 7 8; do
  corral run --bg --name "c$i" -- sh -c "echo $i; exec sleep 300" >/dev/null &
done
wait
jobs=$(corral jobs --json)
assert_eq "$(jq '.jobs | length' <<<"$jobs")" 8 "eight jobs listed"
assert_eq "$(jq '[.jobs[].number] | unique | length' <<<"$jobs")" 8 "eight numbers"
assert_eq "$(jq -r '[.jobs[].name] | sort | join(" ")' <<<"$jobs")" "c1 c2 c3 c4 c5 c6 c7 c8"
corral reap --all >/dev/null
corral agent stop >/dev/null

# Six clients start a job under one name at the same moment: one job takes
# it, the other five are refused with a line naming the holder (before, two
# could pass the name check while neither was in the table yet). Each client
# is a `corral connect` already connected, fed from its own FIFO, so the six
# requests arrive together.
corral agent start >/dev/null
d=$(mktemp -d)
for i in 3 4 5 6 7 8; do
  mkfifo "$d/in$i"
  corral connect <"$d/in$i" >"$d/out$i" &
done
exec 3>"$d/in3" 4>"$d/in4" 5>"$d/in5" 6>"$d/in6" 7>"$d/in7" 8>"$d/in8"
# Each client answers a first request once it is connected: then all six are.
for i in 3 4 5 6 7 8; do echo '{"op":"jobs","ref":0}' >&"$i"; done
for i in 3 4 5 6 7 8; do wait_until 60 grep -qs '"ref":0' "$d/out$i"; done
start='{"op":"job-start","argv":["sleep","300"],"tty":false,"name":"same","headBytes":0,"maxBytes":4096,"graceMs":1000,"ref":1}'
for i in 3 4 5 6 7 8; do echo "$start" >&"$i"; done
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&-
wait
replies=$(cat "$d"/out* | jq -c 'select(.ref == 1)')
assert_eq "$(jq -s 'map(select(.ok)) | length' <<<"$replies")" 1 "one start took the name"
assert_eq "$(jq -s 'map(select(.error.code == "name_taken")) | length' <<<"$replies")" 5 "five starts refused as name_taken"
holder=$(jq -r 'select(.ok) | .job.id' <<<"$replies")
assert_eq "$(jq -rs 'map(select(.ok | not) | .error.message | test("exists \\(" + "'"$holder"'" + "\\)")) | all' <<<"$replies")" true "each refusal names the holder"
assert_eq "$(corral jobs --json | jq '.jobs | length')" 1 "one job listed"
rm -rf "$d"
corral reap --all >/dev/null
corral agent stop >/dev/null
