# A program that asks the terminal where the cursor is (and what it is, and
# how big) gets its answers even when nobody reads its screen, and even when
# it writes each query in pieces. The program checks each reply arrives
# within 1 s and writes OK or FAIL to a file; this script never reads the
# screen while it runs.
. "$SCRIPT_LIB"

cat > ask.py <<'PY'
import os, re, select, sys, time, tty
tty.setraw(0)
queries = [
    ("cursor position, in pieces", [b"\x1b[5;10H\x1b", b"[", b"6n"], rb"\x1b\[5;10R"),
    ("device attributes", [b"\x1b", b"[c"], rb"\x1b\[\?[0-9;]*c"),
    ("secondary device attributes", [b"\x1b[>", b"c"], rb"\x1b\[>[0-9;]*c"),
    ("status", [b"\x1b[5", b"n"], rb"\x1b\[0n"),
    ("version (XTVERSION)", [b"\x1b[", b">q"], rb"\x1bP>\|corral[^\x1b]*\x1b\\"),
    ("size in characters", [b"\x1b[1", b"8t"], rb"\x1b\[8;24;80t"),
    ("bracketed paste mode (DECRQM)", [b"\x1b[?2004", b"$p"], rb"\x1b\[\?2004;[0-4]\$y"),
]
with open(sys.argv[1], "w") as out:
    for name, pieces, reply in queries:
        start = time.monotonic()
        for i, piece in enumerate(pieces):
            if i: time.sleep(0.05)  # each piece its own write
            os.write(1, piece)
        got = b""
        while not re.search(reply, got) and time.monotonic() - start < 10:
            if select.select([0], [], [], 0.1)[0]:
                got += os.read(0, 256)
        took = time.monotonic() - start
        verdict = "OK" if re.search(reply, got) and took < 1.0 else "SLOW" if re.search(reply, got) else "FAIL"
        out.write("%s %s (%.0f ms)\n" % (verdict, name, took * 1000))
    out.write("done\n")
PY

id=$(corral pty open -- python3 ask.py "$PWD/answers.txt")
wait_until 60 grep -q '^done' answers.txt
cat answers.txt
if grep -q '^FAIL' answers.txt; then
  fail "a query went unanswered"
fi
# Within 1 s is what a program may assume; a loaded machine may be slower
# (SLOW above), so only a reply that never came fails here.
corral pty close "$id" >/dev/null
