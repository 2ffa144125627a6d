// The served connect splits the pushed stdin into lines as node:readline
// does for the JavaScript CLI's relay (crlfDelay Infinity): at \n, \r\n and
// a lone \r, wherever the pieces of stdin happen to break, a \r\n split
// across two pieces counting once; and it knows where in stdin each line
// ends, which the ledger of an adopted connect needs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { type Line, LineSplitter } from "../../../cli/commands/connect/served-lines.ts";

async function readlineLines(pieces: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from(pieces.map((p) => Buffer.from(p))), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

function split(pieces: readonly Uint8Array[]): Line[] {
  const splitter = new LineSplitter();
  const lines: Line[] = [];
  for (const piece of pieces) lines.push(...splitter.push(piece));
  lines.push(...splitter.end());
  return lines;
}

function splitterLines(pieces: readonly string[]): string[] {
  return split(pieces.map((piece) => new TextEncoder().encode(piece))).map((line) => line.text);
}

test("lines split as readline splits them, across every break of the pieces", async () => {
  const texts = ["a\nb\r\nc\rd", "a\r\n\r\nb\n\n", "\r\r\n\n\r", "one line, no end", "x\r", "{\"op\":\"list\"}\r\n{\"op\":\"list\"}"];
  for (const text of texts) {
    for (let cut = 0; cut <= text.length; cut++) {
      for (let cut2 = cut; cut2 <= text.length; cut2++) {
        const pieces = [text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)];
        assert.deepEqual(splitterLines(pieces), await readlineLines(pieces), JSON.stringify(pieces));
      }
    }
  }
});

test("each line knows where it ends in stdin, and text cut inside a character is whole again", () => {
  const bytes = new TextEncoder().encode("\ufeff{\"a\":\"é€\"}\r\n\r\n{\"b\":\"😀\"}\rlast");
  const expected = [
    { text: '{"a":"é€"}', end: 3 + 15 },
    { text: "", end: 3 + 17 },
    { text: '{"b":"😀"}', end: 3 + 17 + 13 },
    { text: "last", end: bytes.length },
  ];
  // Pieces of one byte or more, as reads give them (an empty piece breaks a \r\n in two, as readline does).
  for (let cut = 1; cut < bytes.length; cut++) {
    for (let cut2 = cut + 1; cut2 < bytes.length; cut2++) {
      const lines = split([bytes.subarray(0, cut), bytes.subarray(cut, cut2), bytes.subarray(cut2)]);
      // A \r\n cut between its bytes ends the line at the \r: the \n, read later, is skipped.
      const ends = expected.map(({ end }) => (bytes[end - 1] === 0x0a && bytes[end - 2] === 0x0d && (cut === end - 1 || cut2 === end - 1) ? end - 1 : end));
      assert.deepEqual(lines, expected.map((line, i) => ({ ...line, end: ends[i] })), `cut at ${cut} and ${cut2}`);
    }
  }
});

test("a byte-order mark is dropped only where stdin starts", () => {
  const lines = split([new TextEncoder().encode("\ufeffone\n\ufefftwo\n")]);
  assert.deepEqual(lines.map((line) => line.text), ["one", "\ufefftwo"]);
});
