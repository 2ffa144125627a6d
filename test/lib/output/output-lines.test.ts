// Line limits and line-boundary cuts of what collect shows (lib/output/
// shown-output.ts): at -1/0/+1 lines, lines longer than the window, CRLF,
// no trailing newline, a binary stream, and the 4 KiB snap distance.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RetainedWindow } from "../../../lib/output/retained-window.ts";
import { type ShowLimits, showOutput, SNAP_BYTES } from "../../../lib/output/shown-output.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join("");

function shown(stream: Uint8Array, headBytes: number, tailBytes: number, limits: Partial<ShowLimits> = {}, chunk = 7) {
  const window = new RetainedWindow(headBytes, tailBytes);
  for (let at = 0; at < stream.length; at += chunk) window.append(stream.subarray(at, at + chunk));
  const out = showOutput(window.snapshot(), { tailBytes, ...limits });
  // Invariants whatever the limits: a prefix, a suffix, nothing counted twice.
  assert.deepEqual(out.head, stream.subarray(0, out.head.length), "head is a prefix");
  assert.deepEqual(out.tail, stream.subarray(stream.length - out.tail.length), "tail is a suffix");
  assert.equal(out.head.length + out.tail.length + out.elided, stream.length, "bytes add up");
  assert.ok(out.head.length <= headBytes && out.tail.length <= tailBytes, "within the byte limits");
  return out;
}

test("head and tail lines at -1/0/+1 lines around the limits", () => {
  for (const total of [19, 20, 21]) {
    const stream = enc(seq(1, total));
    const out = shown(stream, 1 << 20, 1 << 20, { headLines: 10, tailLines: 10 });
    if (total <= 20) {
      assert.equal(out.elided, 0, `${total} lines: nothing elided`);
      assert.equal(dec(out.head) + dec(out.tail), seq(1, total));
      assert.equal(out.headCutBy, null);
    } else {
      assert.equal(dec(out.head), seq(1, 10));
      assert.equal(dec(out.tail), seq(12, 21));
      assert.equal(out.elidedLines, 1);
      assert.equal(out.elided, 3);
      assert.equal(out.headCutBy, "lines");
      assert.equal(out.tailCutBy, "lines");
    }
    assert.equal(out.lines, total);
  }
});

test("zero lines: the head or the tail shows nothing", () => {
  const stream = enc(seq(1, 50));
  const tailOnly = shown(stream, 1 << 20, 1 << 20, { headLines: 0, tailLines: 3 });
  assert.equal(dec(tailOnly.head), "");
  assert.equal(dec(tailOnly.tail), seq(48, 50));
  assert.equal(tailOnly.elidedLines, 47);
  const headOnly = shown(stream, 1 << 20, 1 << 20, { headLines: 2, tailLines: 0 });
  assert.equal(dec(headOnly.head), seq(1, 2));
  assert.equal(dec(headOnly.tail), "");
});

test("the smaller limit wins and the result says which", () => {
  const stream = enc(seq(1, 100_000));
  // 1000 lines of seq's end are ~7 KB: 1 KiB of bytes is the smaller tail limit.
  const bytesWin = shown(stream, 64, 1024, { headLines: 1000, tailLines: 1000 }, 4096);
  assert.equal(bytesWin.headCutBy, "bytes");
  assert.equal(bytesWin.tailCutBy, "bytes");
  // ...and the byte cuts land on line boundaries (within 4 KiB of the window's edge).
  assert.match(dec(bytesWin.head), /^1\n(.*\n)*$/);
  assert.match(dec(bytesWin.tail), /^\d+\n(.*\n)*100000\n$/);
  assert.ok(!dec(bytesWin.tail).startsWith("0"), "no line fragment at the start of the tail");
  const linesWin = shown(stream, 1 << 20, 1 << 20, { headLines: 5, tailLines: 5 }, 65536);
  assert.equal(linesWin.headCutBy, "lines");
  assert.equal(linesWin.tailCutBy, "lines");
  assert.equal(dec(linesWin.tail), seq(99_996, 100_000));
  assert.equal(linesWin.lines, 100_000);
  assert.equal(linesWin.elidedLines, 100_000 - 10);
});

test("a line longer than the window is cut by bytes, mid-line", () => {
  const long = "x".repeat(3 * SNAP_BYTES);
  const stream = enc(`${long}\n${long}\n`);
  const out = shown(stream, 2 * SNAP_BYTES, 2 * SNAP_BYTES, { headLines: 1, tailLines: 1 }, 1000);
  assert.equal(out.head.length, 2 * SNAP_BYTES, "head keeps its bytes: no line end to snap to");
  assert.equal(out.headCutBy, "bytes");
  assert.equal(out.tail.length, 2 * SNAP_BYTES);
  assert.equal(out.tailCutBy, "bytes");
  assert.equal(out.lines, 2);
  assert.equal(out.headLines, 1);
});

test("a byte cut moves to a line boundary only within 4 KiB (limit-1, limit, limit+1)", () => {
  const headBytes = 2 * SNAP_BYTES;
  for (const [after, snaps] of [[SNAP_BYTES - 1, true], [SNAP_BYTES, true], [SNAP_BYTES + 1, false]] as const) {
    // A line end `after` bytes before the head window's end, then a long line.
    const first = "a".repeat(headBytes - after - 1) + "\n";
    const stream = enc(first + "b".repeat(4 * SNAP_BYTES) + "\n");
    const out = shown(stream, headBytes, 16, {}, 512);
    assert.equal(out.head.length, snaps ? first.length : headBytes, `${after} bytes after the line end`);
  }
  for (const [before, snaps] of [[SNAP_BYTES - 2, true], [SNAP_BYTES - 1, true], [SNAP_BYTES, false]] as const) {
    // The tail window starts mid-line; its first line end is `before` bytes into it.
    const last = "z".repeat(2 * SNAP_BYTES) + "\n";
    const stream = enc("d".repeat(10 * SNAP_BYTES + before) + "\n" + last);
    const out = shown(stream, 0, before + 1 + last.length, {}, 512);
    assert.equal(out.tail.length, snaps ? last.length : before + 1 + last.length, `line end ${before} bytes into the tail`);
  }
});

test("CRLF lines stay whole; a lone CR is no line end", () => {
  const stream = enc("one\r\ntwo\r\nthree\r\nfour\r\n");
  const out = shown(stream, 1 << 16, 1 << 16, { headLines: 1, tailLines: 1 }, 3);
  assert.equal(dec(out.head), "one\r\n");
  assert.equal(dec(out.tail), "four\r\n");
  assert.equal(out.lines, 4);
  assert.equal(out.elidedLines, 2);
  const progress = shown(enc("10%\r50%\r100%\ndone\n"), 1 << 16, 1 << 16, { headLines: 1, tailLines: 0 });
  assert.equal(dec(progress.head), "10%\r50%\r100%\n");
  assert.equal(progress.lines, 2);
});

test("no trailing newline: the last line counts and is shown whole", () => {
  const stream = enc("1\n2\n3");
  const out = shown(stream, 1 << 16, 1 << 16, { headLines: 0, tailLines: 2 });
  assert.equal(dec(out.tail), "2\n3");
  assert.equal(out.lines, 3);
  assert.equal(out.tailLines, 2);
  const one = shown(enc("only"), 1 << 16, 1 << 16, { headLines: 0, tailLines: 1 });
  assert.equal(dec(one.tail), "only");
  assert.equal(one.lines, 1);
  assert.equal(shown(new Uint8Array(0), 16, 16, { headLines: 1, tailLines: 1 }).lines, 0);
});

test("a binary stream without line ends: byte limits decide, one line", () => {
  const stream = new Uint8Array(100_000);
  for (let i = 0; i < stream.length; i++) stream[i] = ((i * 7919) % 251) === 10 ? 11 : (i * 7919) % 251;
  const out = shown(stream, 1000, 2000, { headLines: 3, tailLines: 3 }, 4096);
  assert.equal(out.head.length, 1000);
  assert.equal(out.tail.length, 2000);
  assert.equal(out.headCutBy, "bytes");
  assert.equal(out.lines, 1);
  assert.equal(out.elidedLines, 0);
});

test("line feeds counted four bytes at a time agree with a byte loop at every offset and length", async () => {
  const { countLineFeeds } = await import("../../../lib/output/line-feeds.ts");
  const data = new Uint8Array(300);
  for (let i = 0; i < data.length; i++) data[i] = [0x0a, 0x0b, 0x8a, 0x0a, 0x30, 0xff][(i * 7) % 6] as number;
  for (let from = 0; from < 8; from++) {
    for (let length = 0; length < 200; length += 3) {
      const part = data.subarray(from, from + length);
      assert.equal(countLineFeeds(part), part.filter((b) => b === 0x0a).length, `${from}+${length}`);
    }
  }
  assert.equal(countLineFeeds(new Uint8Array(1000).fill(0x0a)), 1000);
});
