# The README's screen picture is made by a script anyone can run: it still
# works, and what it draws is an SVG that renders, of the right size, with
# vim's syntax colours in it.
. "$SCRIPT_LIB"

out=$(bash "$CORRAL_REPO/test/pictures/regenerate.sh" "$SCRIPT_TMP/screen.svg")
assert_eq "$out" "$SCRIPT_TMP/screen.svg"
svg=$(cat screen.svg)
assert_contains "$svg" '<svg xmlns="http://www.w3.org/2000/svg"'
assert_contains "$svg" '72x18 · session'
assert_contains "$svg" 'deployed to'
# vim's syntax colours: text in at least four colours.
colours=$(grep -o '<text [^>]*fill="#[0-9a-f]*"' screen.svg | grep -o 'fill="#[0-9a-f]*"' | sort -u | wc -l)
((colours >= 4)) || fail "expected syntax colours in the picture, found $colours text colours"
if command -v rsvg-convert >/dev/null; then
  rsvg-convert screen.svg -o screen.png
  [[ -s screen.png ]] || fail "rsvg-convert made no picture"
fi
# The committed picture is one this script made (same size and caption shape).
committed=$(cat "$CORRAL_REPO/test/pictures/screen.svg")
assert_contains "$committed" '72x18 · session'
