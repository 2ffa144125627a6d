# --head-lines/--tail-lines reach the guardian (it frames only the head's
# lines and hands over only the tail's): what collect prints and its --json
# are the same as when JavaScript keeps every byte, at the edges of head -n
# and tail -n (a stream that fits, one line over, no final newline, a spill).
. "$SCRIPT_LIB"

cat > gen.sh <<'SH'
case $1 in
  fits) seq 1 5 ;;
  over) seq 1 6 ;;
  no-final-newline) printf 'a\nb\nc\nd\ne\nf\ng' ;;
  long) seq 1 200000 ;;
esac
SH
# What collect reports, but for timings and the spill's path (the plain
# output is printed from the same picture: it is compared once, below).
report() {
  corral collect --json "$@" | jq -S 'del(.exit.durationMs) | .stdout.spill = null | .stderr.spill = null'
}
for gen in fits over no-final-newline; do
  for limits in "--head-lines 3 --tail-lines 2" "--tail-lines 2" "--head-lines 0 --tail-lines 0" "--head-lines 2 --tail-lines 3 --spill s.log"; do
    read -ra flags <<<"$limits"
    CORRAL_GUARDIAN=always report "${flags[@]}" -- sh gen.sh "$gen" > always.txt
    CORRAL_GUARDIAN=never report "${flags[@]}" -- sh gen.sh "$gen" > never.txt
    cmp -s always.txt never.txt || fail "$gen with $limits: the guardian's report differs: $(diff always.txt never.txt | head -5)"
  done
done
for limits in "--head-lines 3 --tail-lines 2" "--tail-lines 2"; do
  read -ra flags <<<"$limits"
  CORRAL_GUARDIAN=always corral collect "${flags[@]}" -- sh gen.sh long > always.txt 2>&1
  CORRAL_GUARDIAN=never corral collect "${flags[@]}" -- sh gen.sh long > never.txt 2>&1
  cmp -s always.txt never.txt || fail "long with $limits: the guardian's printed output differs: $(diff always.txt never.txt | head -5)"
done
# The guardian sent only the lines (not its 64 KiB head and 1 MiB tail): its
# spill file is whole, and the report counts every line.
CORRAL_GUARDIAN=always corral collect --json --head-lines 1 --tail-lines 1 --spill whole.log -- seq 1 200000 > long.json
assert_eq "$(jq -c '[.stdout.head, .stdout.tail, .stdout.lines, .stdout.cutBy.head, .stdout.cutBy.tail]' long.json)" '["1\n","200000\n",200000,"lines","lines"]' "head -n 1 and tail -n 1 of 200000 lines"
seq 1 200000 | cmp -s - whole.log.stdout || fail "the spill file is not the whole stream"
