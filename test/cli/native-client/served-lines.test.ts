// The served connect splits the pushed stdin into lines as node:readline
// does for the JavaScript CLI's relay (crlfDelay Infinity): at \n, \r\n and
// a lone \r, wherever the pieces of stdin happen to break, a \r\n split
// across two pieces counting once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { LineSplitter } from "../../../cli/commands/connect/served-lines.ts";

async function readlineLines(pieces: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from(pieces.map((p) => Buffer.from(p))), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

function splitterLines(pieces: readonly string[]): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  for (const piece of pieces) lines.push(...splitter.push(piece));
  lines.push(...splitter.end(""));
  return lines;
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
