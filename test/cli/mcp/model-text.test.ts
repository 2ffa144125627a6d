// Output shaped for a model (cli/commands/mcp/model-text.ts), at its edges:
// a stream exactly as long as head plus tail comes whole, one byte more is
// cut at line ends with exact counts; ANSI, redraws and backspaces become
// what a terminal shows; a long line is clipped in the middle, saying so.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanText, clipMiddle, lastLinesWithin, streamForModel } from "../../../cli/commands/mcp/model-text.ts";

const enc = new TextEncoder();
/** A store's view of `text` keeping `keep` bytes at each end. */
function retained(text: string, keep: number) {
  const bytes = enc.encode(text);
  const head = bytes.subarray(0, Math.min(keep, bytes.length));
  const tail = bytes.subarray(Math.max(0, bytes.length - keep));
  return { bytes: bytes.length, lineFeeds: [...text].filter((c) => c === "\n").length, head, tail };
}

test("head plus tail meeting exactly: the whole stream, nothing elided", () => {
  const text = "aaaa\nbbbb\n"; // 10 bytes
  for (const keep of [5, 6, 10]) {
    const shaped = streamForModel(retained(text, keep), 100, null);
    assert.deepEqual([shaped.text, shaped.elided], [text, null], `keep ${keep}`);
  }
});

test("one byte more than head plus tail: cut at line ends, counts exact, the marker says where the rest is", () => {
  const text = "l1\nl2\nl3\nl4\nl5\n"; // 15 bytes
  const shaped = streamForModel(retained(text, 7), 100, "/tmp/all.log");
  // head "l1\nl2\nl" -> "l1\nl2\n"; tail "\nl4\nl5\n"... starts after its first feed: "l4\nl5\n"
  assert.deepEqual(shaped.elided, { bytes: 3, lines: 1, keptIn: "/tmp/all.log" });
  assert.equal(shaped.text, "l1\nl2\n[... 3 bytes, 1 lines elided; all of it is in /tmp/all.log ...]\nl4\nl5\n");
  const unkept = streamForModel(retained(text, 7), 100, null);
  assert.match(unkept.text, /\[\.\.\. 3 bytes, 1 lines elided; not kept \.\.\.\]/);
});

test("ANSI sequences go, redraws collapse to the last state, backspaces apply, CRLF is a line end", () => {
  assert.equal(cleanText("\u001b[1;31mred\u001b[0m \u001b]0;title\u0007ok\r\n", 100).text, "red ok\n");
  assert.equal(cleanText("10%\r20%\r100%\n", 100).text, "100%\n");
  assert.equal(cleanText("downloading 1/3\rdone\n", 100).text, "doneloading 1/3\n", "no erase: what the terminal shows");
  assert.equal(cleanText("downloading 1/3\r\u001b[Kdone\n", 100).text, "done\n", "erase to the end of the line");
  assert.equal(cleanText("50%\u001b[2K\r100%\n", 100).text, "100%\n");
  assert.equal(cleanText("abc\b\bX\n", 100).text, "aXc\n");
});

test("a line longer than the limit is clipped in the middle (limit: kept, limit+1: clipped)", () => {
  assert.deepEqual(cleanText("x".repeat(100), 100), { text: "x".repeat(100), clippedLines: 0 });
  const clipped = cleanText(`${"a".repeat(60)}${"b".repeat(41)}`, 100);
  assert.equal(clipped.clippedLines, 1);
  assert.match(clipped.text, /^a+\[\.\.\. 41 characters clipped \.\.\.\]b+$/);
  assert.equal(clipMiddle("y".repeat(1000), 100).length < 120, true);
});

test("screen text within a budget keeps the last lines and counts the rest", () => {
  const lines = ["one", "two", "three", "four"];
  assert.deepEqual(lastLinesWithin(lines, 100, 100), { lines, dropped: 0, clippedLines: 0 });
  assert.deepEqual(lastLinesWithin(lines, 11, 100), { lines: ["three", "four"], dropped: 2, clippedLines: 0 });
});
