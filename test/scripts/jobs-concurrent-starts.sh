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
