// The UTF-8 text projection: sequences split across chunks at every position,
// invalid bytes replaced, and the head/tail rendering rules of collect --json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { retainedText, retainedTextPieces, Utf8TextStream } from "../../../lib/output/utf8-text.ts";

const enc = new TextEncoder();
const samples = ["é", "€", "😀"]; // 2, 3 and 4 bytes

test("2, 3 and 4-byte sequences split at every position decode whole", () => {
  for (const ch of samples) {
    const bytes = enc.encode(`a${ch}b`);
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (let cut2 = cut; cut2 <= bytes.length; cut2++) {
        const s = new Utf8TextStream();
        const text = s.write(bytes.subarray(0, cut)) + s.write(bytes.subarray(cut, cut2)) +
          s.write(bytes.subarray(cut2)) + s.end();
        assert.equal(text, `a${ch}b`, `${ch} cut at ${cut},${cut2}`);
      }
    }
  }
});

test("a partial sequence is held, not replaced, until its last byte arrives", () => {
  const s = new Utf8TextStream();
  const euro = enc.encode("€");
  assert.equal(s.write(euro.subarray(0, 1)), "");
  assert.equal(s.write(euro.subarray(1, 2)), "");
  assert.equal(s.write(euro.subarray(2)), "€");
});

test("invalid bytes become U+FFFD; a truncated sequence at the end too", () => {
  const s = new Utf8TextStream();
  assert.equal(s.write(new Uint8Array([0x61, 0xff, 0x62])), "a\uFFFDb");
  assert.equal(s.write(new Uint8Array([0x80])), "\uFFFD"); // lone continuation
  assert.equal(s.write(new Uint8Array([0xc0, 0xaf])), "\uFFFD\uFFFD"); // overlong
  assert.equal(s.write(new Uint8Array([0xed, 0xa0, 0x80])), "\uFFFD\uFFFD\uFFFD"); // surrogate
  assert.equal(s.write(new Uint8Array([0xe2, 0x82])), "");
  assert.equal(s.end(), "\uFFFD");
  const bom = new Utf8TextStream();
  assert.equal(bom.write(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])) + bom.end(), "\uFEFFa", "a BOM is kept");
});

async function snapshotOf(text: Uint8Array, head: number, tail: number) {
  const store = await BoundedStore.open({ headBytes: head, tailBytes: tail });
  for (const b of text) store.write(new Uint8Array([b]));
  await store.close();
  return store.snapshot();
}

test("nothing elided: head + tail text is exactly the stream's text, wherever the boundary falls", async () => {
  for (const ch of samples) {
    const bytes = enc.encode(`ab${ch}cd${ch}`);
    for (let head = 0; head <= bytes.length; head++) {
      const snap = await snapshotOf(bytes, head, bytes.length);
      assert.equal(snap.elided, 0);
      const text = retainedText(snap, { final: true });
      assert.equal(text.head + text.tail, `ab${ch}cd${ch}`, `${ch} head=${head}`);
      assert.ok(!text.head.includes("\uFFFD") && !text.tail.includes("\uFFFD"));
    }
  }
});

test("bytes elided: a character cut by either limit is left out, never shown as U+FFFD", async () => {
  for (const ch of samples) {
    const body = `${ch}${ch}${"x".repeat(20)}${ch}${ch}`;
    const bytes = enc.encode(body);
    const n = enc.encode(ch).length;
    for (let head = 0; head <= 2 * n; head++) {
      for (let tail = 0; tail <= 2 * n; tail++) {
        const snap = await snapshotOf(bytes, head, tail);
        assert.ok(snap.elided > 0);
        const text = retainedText(snap, { final: true });
        const whole = Math.floor(head / n);
        assert.equal(text.head, ch.repeat(whole), `${ch} head=${head}`);
        assert.equal(text.tail, ch.repeat(Math.floor(tail / n)), `${ch} tail=${tail}`);
      }
    }
  }
});

test("an open stream holds a trailing partial sequence back; a final one shows U+FFFD", async () => {
  const bytes = new Uint8Array([0x61, 0xe2, 0x82]);
  const snap = await snapshotOf(bytes, 10, 10);
  assert.equal(retainedText(snap, { final: false }).tail + retainedText(snap, { final: false }).head, "a");
  const final = retainedText(snap, { final: true });
  assert.equal(final.head + final.tail, "a\uFFFD");
});

test("invalid bytes inside head and tail are replaced in the rendering", async () => {
  const bytes = new Uint8Array([0xff, 0x61, ...new Array(50).fill(0x2e), 0x62, 0xfe]);
  const snap = await snapshotOf(bytes, 2, 2);
  const text = retainedText(snap, { final: true });
  assert.equal(text.head, "\uFFFDa");
  assert.equal(text.tail, "b\uFFFD");
});

test("head and tail decoded in small pieces equal the whole decode, for cuts anywhere in mixed and invalid UTF-8", () => {
  // Fixed pseudo-random bytes: ASCII, 2-4 byte characters, stray continuation and lead bytes.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const atoms = [enc.encode("a"), enc.encode("é"), enc.encode("€"), enc.encode("😀"), Uint8Array.of(0x80), Uint8Array.of(0xf0, 0x9f), Uint8Array.of(0xff)];
  for (let round = 0; round < 60; round++) {
    const parts: Uint8Array[] = [];
    for (let n = Math.floor(next() * 30); n > 0; n--) parts.push(atoms[Math.floor(next() * atoms.length)]!);
    const bytes = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
    let at = 0;
    for (const p of parts) (bytes.set(p, at), (at += p.length));
    const cut = Math.floor(next() * (bytes.length + 1));
    for (const elided of [0, 5]) {
      for (const final of [true, false]) {
        const snapshot = { head: bytes.subarray(0, cut), tail: bytes.subarray(cut), elided, truncated: elided > 0, bytes: bytes.length + elided };
        const whole = retainedText(snapshot as never, { final });
        if (elided === 0 && final) assert.equal(whole.head + whole.tail, new TextDecoder().decode(bytes), `round ${round}`);
        for (const size of [1, 2, 3, 5]) {
          const text = { head: "", tail: "" };
          let sawTail = false;
          for (const piece of retainedTextPieces(snapshot as never, { final }, size)) {
            if (piece.part === "tail") sawTail = true;
            else assert.equal(sawTail, false, "a head piece after a tail piece");
            text[piece.part] += piece.text;
          }
          assert.deepEqual(text, whole, `round ${round}, cut ${cut}, elided ${elided}, final ${final}, pieces of ${size}`);
        }
      }
    }
  }
});
