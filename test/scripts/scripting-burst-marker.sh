# A marker followed by 5,000 lines in one write scrolls off the screen long
# before anyone looks: the wait matches the output stream, not only the
# screen, so it is found every time (20 of 20; 50 rounds cost 40 s of suite time).
. "$SCRIPT_LIB"

corral pty open --name burst -- python3 -q >/dev/null
corral pty wait burst --ready --timeout 30s >/dev/null
found=0
for i in $(seq 1 20); do
  # The marker is built at run time, so the echoed command line does not contain it.
  # Sent, then waited until python is ready again: the burst has scrolled by
  # before the text wait below even starts.
  at=$(corral pty send burst "import sys; sys.stdout.write('MARK' + 'ER-$i\\n' + ''.join('%d\\n' % n for n in range(5000))); sys.stdout.flush()" --key Enter --wait-ready --timeout 30s --json | jq .at)
  reply=$(corral pty wait burst --after "$at" --text "MARKER-$i" --timeout 30s --json)
  [[ $(jq -r .match.text <<<"$reply") == "MARKER-$i" ]] && [[ $(jq -r .match.from <<<"$reply") == stream ]] && found=$((found + 1))
  pos=$(jq .match.position <<<"$reply")
  [[ "$pos" -gt "$at" ]] || fail "round $i: match position $pos is not after $at"
done
assert_eq "$found" 20 "markers found"
corral pty close burst >/dev/null
