// Waits over the output stream (DESIGN.md 4.8): the line projection with
// byte positions, the bounded window, searching after a position, RE2
// patterns that cannot freeze the agent, and a session end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { endOf, MAX_LINE_CHARS, type StreamLine, StreamProjector } from "../../../lib/pty/stream-lines.ts";
import { StreamWindow } from "../../../lib/pty/stream-window.ts";
import { Screen } from "../../../lib/pty/screen.ts";
import { type StreamHit, StreamWatch } from "../../../lib/pty/wait-stream.ts";
import { compilePatterns, compileRegex, findFrom, PatternError } from "../../../lib/pty/wait-pattern.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function project(...chunks: string[]): { lines: StreamLine[]; current: StreamLine } {
  const lines: StreamLine[] = [];
  const projector = new StreamProjector((line) => lines.push(line));
  for (const chunk of chunks) projector.feed(bytes(chunk));
  return { lines, current: projector.current() };
}

test("lines: newline, carriage return, backspace, erase, colours, titles, cursor moves", () => {
  const { lines, current } = project(
    "plain\r\n",
    "10%\r20%\r100%\r\n",
    "ab\bc\r\n",
    "\x1b[1;31mred\x1b[0m text\r\n",
    "\x1b]0;a title\x07after title\n",
    "long line\rshort\x1b[K\n",
    "\x1b[5;1Hdrawn at row 5\x1b[6;1Hand row 6",
    "\x1b[?2004h\r\nprompt> ",
  );
  assert.deepEqual(lines.map((l) => l.text), ["plain", "100%", "ac", "red text", "after title", "short", "drawn at row 5", "and row 6"]);
  assert.equal(current.text, "prompt> ");
});

test("positions: each character knows the byte after it, through escapes and UTF-8", () => {
  const { lines } = project("ab", "\x1b[31mc\x1b[0m", "é\n");
  const line = lines[0] as StreamLine;
  assert.equal(line.text, "abcé");
  // a=1 b=2 (ESC[31m is 5 bytes) c=8 (ESC[0m is 4) é=14 (two bytes) newline=15.
  assert.deepEqual([0, 1, 2, 3].map((i) => endOf(line, i)), [1, 2, 8, 14]);
  assert.equal(line.end, 15);
  // A UTF-8 sequence split across chunks is one character.
  const split: StreamLine[] = [];
  const projector = new StreamProjector((l) => split.push(l));
  projector.feed(new Uint8Array([0x78, 0xc3]));
  projector.feed(new Uint8Array([0xa9, 0x0a]));
  assert.equal(split[0]?.text, "x\u00e9");
  assert.equal(endOf(split[0] as StreamLine, 1), 3);
});

test("a line longer than the bound is cut into pieces", () => {
  const { lines, current } = project("x".repeat(MAX_LINE_CHARS + 10));
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.text.length, MAX_LINE_CHARS);
  assert.equal(current.text.length, 10);
});

test("searching after a position: only characters written after it count", () => {
  const window = new StreamWindow();
  window.feed(bytes(">>> "));
  const at = window.position;
  window.feed(bytes("print(6*7)\r\n42\r\n>>> "));
  const patterns = compilePatterns(["42", ">>>"], ["^42$"]);
  const hits: StreamHit[] = [];
  const watch = new StreamWatch(window, at, patterns, (hit) => hits.push(hit));
  assert.equal(hits[0]?.pattern.kind, "text", "the echo line holds no match; the answer does");
  assert.equal(hits[0]?.position, at + "print(6*7)\r\n42".length);
  const prompt: StreamHit[] = [];
  const later = new StreamWatch(window, at + "print(6*7)\r\n42\r\n".length, patterns, (hit) => prompt.push(hit));
  assert.equal(prompt.length, 0);
  assert.equal(later.checkCurrent()?.match.text, ">>>", "the unfinished last line counts");
  assert.equal(new StreamWatch(window, window.position, patterns, () => {}).checkCurrent(), undefined);
  watch.stop();
  later.stop();
});

test("a running watch sees every line however many arrive at once; a late one is told what was lost", () => {
  const window = new StreamWindow(64 * 1024);
  const hits: StreamHit[] = [];
  const watch = new StreamWatch(window, 0, compilePatterns(["MARKER"], []), (hit) => hits.push(hit));
  let text = "MARKER\n";
  for (let i = 0; i < 50_000; i++) text += `${i}\n`;
  window.feed(bytes(text));
  assert.equal(hits.length, 1);
  watch.stop();
  const late = new StreamWatch(window, 0, compilePatterns(["MARKER"], []), () => assert.fail("the marker is no longer kept"));
  assert.equal(late.windowExceeded, true);
  assert.equal(window.keptFrom, window.position - 64 * 1024);
  const searched: StreamHit[] = [];
  new StreamWatch(window, 0, compilePatterns([], ["^49999$"]), (hit) => searched.push(hit));
  assert.equal(searched.length, 1, "what is kept is still searched");
});

test("searching a line that started before the position sees the whole line, matches only after", () => {
  const window = new StreamWindow();
  window.feed(bytes("abc"));
  const at = window.position;
  window.feed(bytes("def\n"));
  const found: StreamHit[] = [];
  new StreamWatch(window, at, compilePatterns([], ["^abcdef$", "^def$"]), (hit) => found.push(hit));
  assert.equal(found.length, 0, "^ is the line's start, which came before the position");
  new StreamWatch(window, at, compilePatterns([], ["de"]), (hit) => found.push(hit));
  assert.equal(found[0]?.match.text, "de");
});

test("RE2: groups, named groups, empty matches skipped, lookaround refused", () => {
  const [pattern] = compilePatterns([], ["(?P<n>\\d+)-(x)?"]);
  const m = findFrom(pattern!, "ab 12- cd", 0);
  assert.deepEqual([m?.text, m?.groups, m?.named], ["12-", ["12", null], { n: "12" }]);
  const [empty] = compilePatterns([], ["x*"]);
  assert.equal(findFrom(empty!, "abxx", 0)?.text, "xx");
  assert.throws(() => compileRegex("(?=a)"), PatternError);
  assert.throws(() => compileRegex("(a)\\1"), PatternError);
});

test("a pattern that backtracks forever elsewhere is linear here", () => {
  const [pattern] = compilePatterns([], ["(a+)+$b"]);
  // JavaScript's own engine takes minutes over this; RE2 answers at once.
  assert.equal(findFrom(pattern!, `${"a".repeat(5000)}\n`, 0), undefined);
});

for (const backend of backends) {
  test(`[${backend}] a hostile regex does not hold up another session's screen`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "printf 'a%.0s' $(seq 40); echo; exec cat"] });
    const other = await openSession(t, backend, { argv: ["sh", "-c", "echo other; exec cat"] });
    await s.wait({ text: "aaaa", timeoutMs: 20_000 });
    await other.wait({ text: "other", timeoutMs: 20_000 });
    const started = Date.now();
    const pending = s.wait({ regex: "(a+)+$b", after: 0, timeoutMs: 30_000 });
    let waitDone = false;
    void pending.then(() => (waitDone = true));
    // Output keeps arriving, so the pattern is searched again and again.
    for (let i = 0; i < 20; i++) s.write(`${"a".repeat(40)}\r`);
    const screen = await other.screen();
    assert.equal(screen.lines[0], "other");
    // Generous on purpose: a backtracking engine takes minutes here, not seconds.
    assert.ok(Date.now() - started < 30_000, "the other screen was read within the wait's timeout");
    assert.equal(waitDone, false, "the other screen was read while the wait was still searching");
    s.write("\x04");
    assert.equal((await pending).fired, "exit", "the wait ends with the program (cat saw end of input)");
  });

  test(`[${backend}] a marker in a burst that scrolled away is found, with the position after it`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "read x; echo MARKER-7; seq 1 3000; exec cat"], rows: 10 });
    const at = s.write("go\r");
    await s.wait({ regex: "^3000$", after: at, timeoutMs: 20_000 });
    const r = await s.wait({ text: "MARKER-7", after: at, timeoutMs: 20_000 });
    assert.equal(r.fired, "text");
    assert.equal(r.match?.from, "stream");
    assert.ok(!r.snapshot.lines.includes("MARKER-7"), "the marker had left the screen");
    const next = await s.waitMayTimeout({ regex: "^MARKER", after: r.match?.position ?? 0, timeoutMs: 300 });
    assert.equal(next.fired, "timeout", "after the match's position, the marker is behind");
  });
}

test("a running watch fires on the unfinished last line as its chunk arrives, before any parse", () => {
  const window = new StreamWindow();
  const hits: StreamHit[] = [];
  const watch = new StreamWatch(window, 0, compilePatterns(["$ "], []), (hit) => hits.push(hit));
  window.feed(bytes("output\r\n$"));
  assert.equal(hits.length, 0);
  window.feed(bytes(" "));
  assert.equal(hits.length, 1, "a prompt has no newline: the chunk that completes it fires the wait");
  assert.equal(hits[0]?.position, "output\r\n$ ".length);
  window.feed(bytes("\r\n$ "));
  assert.equal(hits.length, 1, "once");
  watch.stop();
});

test("a pending wait has output parsed as it arrives; without one it waits for the loop's next turn", async () => {
  const screen = await Screen.create({ cols: 20, rows: 4, onReply: () => {}, onPressure: () => {} });
  try {
    await screen.settled(); // makes the emulator: output is parsed, not kept as history
    screen.feed(bytes("no wait\r\n"));
    assert.equal(screen.isSettled, false, "negative control: batched for the next turn");
    await screen.settled();
    const stop = screen.onParsed(() => {});
    screen.feed(bytes("a wait is pending\r\n"));
    assert.equal(screen.isSettled, true, "parsed at once for the pending wait");
    stop();
  } finally {
    screen.dispose();
  }
});
