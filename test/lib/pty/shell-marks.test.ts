// The mark filter at its edges: a mark cut at every byte, a wrong or missing
// nonce (output like any other), ST as terminator, a directory holding ";",
// and a held prefix that turns out to be output. The command output's line
// ends across chunk boundaries too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ShellMarkFilter, type ShellMark } from "../../../lib/pty/shell-marks.ts";
import { CommandOutput } from "../../../lib/pty/command-output.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Feeds `chunks` and returns the output without marks, and the marks. */
function filter(nonce: string, chunks: readonly string[], flush = true): { text: string; marks: ShellMark[] } {
  const f = new ShellMarkFilter(nonce);
  let text = "";
  const marks: ShellMark[] = [];
  let position = 0;
  const sink = { bytes: (b: Uint8Array) => (text += dec(b)), mark: (m: ShellMark) => marks.push(m) };
  for (const chunk of chunks) {
    const bytes = enc(chunk);
    f.scan(bytes, position, sink);
    position += bytes.length;
  }
  if (flush) f.flush(sink);
  return { text, marks };
}

const STREAM = "out\x1b]133;C;corral=abc\x07hi\r\n\x1b]133;D;3;corral=abc\x07\x1b]133;A;corral=abc;cwd=/a;b c\x1b\\$ ";

test("marks with the nonce are taken out, wherever the reads cut them", () => {
  for (let cut = 0; cut <= STREAM.length; cut++) {
    const { text, marks } = filter("abc", [STREAM.slice(0, cut), STREAM.slice(cut)]);
    assert.equal(text, "outhi\r\n$ ", `cut at ${cut}`);
    assert.deepEqual(marks.map((m) => [m.kind, m.status, m.cwd]), [["C", undefined, undefined], ["D", 3, undefined], ["A", undefined, "/a;b c"]], `cut at ${cut}`);
    assert.deepEqual(marks.map((m) => [m.at, m.end]), [[3, 22], [26, 47], [47, 78]], `positions, cut at ${cut}`);
  }
  const { text } = filter("abc", [...STREAM]);
  assert.equal(text, "outhi\r\n$ ", "one byte a read");
});

test("a mark without the nonce, or with another, is output", () => {
  const fakes = "\x1b]133;D;0\x07\x1b]133;D;7;corral=abd\x07\x1b]133;D;7;corral=abcd\x07\x1b]0;title\x07";
  const { text, marks } = filter("abc", [fakes]);
  assert.equal(text, fakes);
  assert.deepEqual(marks, []);
});

test("a held prefix that never becomes a mark is output at the end", () => {
  const { text, marks } = filter("abc", ["x\x1b]133;D;0;corr"]);
  assert.equal(text, "x\x1b]133;D;0;corr");
  assert.deepEqual(marks, []);
  assert.equal(filter("abc", ["x\x1b]13"], false).text, "x", "held until the next read");
});

test("command output: CR LF becomes LF across reads, a lone CR stays", async () => {
  const out = await CommandOutput.open({ headBytes: 1024, maxBytes: 1024 }, false);
  for (const chunk of ["a\r", "\nb\r", "c\r\n", "d\r"]) out.write(enc(chunk));
  assert.equal((await out.finish()).text, "a\nb\rc\nd\r");
  const fish = await CommandOutput.open({ headBytes: 1024, maxBytes: 1024 }, true);
  for (const chunk of ["\x1b[?2004l\x1b]0;t\x07\x1b(B\x1b[m\r", "hi\r\n"]) fish.write(enc(chunk));
  assert.equal((await fish.finish()).text, "hi\n", "fish's title and modes before the output are dropped");
});
