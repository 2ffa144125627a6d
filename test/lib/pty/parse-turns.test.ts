// lib/pty/parse-turns.ts and the flood path of parse-batcher.ts: floods
// parse one slice per event-loop turn, round-robin over the sessions, with
// the poll phase (sockets) served between turns, and every byte still
// reaches its terminal in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import xtermHeadless from "@xterm/headless";
import { ParseTurns } from "../../../lib/pty/parse-turns.ts";
import { ParseBatcher } from "../../../lib/pty/parse-batcher.ts";

const { Terminal } = xtermHeadless;

test("a slice taken runs on a later turn, one slice a turn, in the order taken", async () => {
  const turns = new ParseTurns();
  const ran: string[] = [];
  for (const name of ["a", "b", "c"]) turns.take(() => ran.push(name));
  assert.deepEqual(ran, [], "nothing runs inside take()");
  await nextTurn();
  assert.deepEqual(ran, ["a"]);
  await nextTurn();
  assert.deepEqual(ran, ["a", "b"]);
  await nextTurn();
  assert.deepEqual(ran, ["a", "b", "c"]);
  assert.equal(turns.waiting, 0);
});

test("sessions that ask for their next slice after each one take turns round-robin", async () => {
  const turns = new ParseTurns();
  const ran: string[] = [];
  const flood = (name: string, slices: number) => {
    const step = (left: number) => turns.take(() => {
      ran.push(name);
      if (left > 1) step(left - 1);
    });
    step(slices);
  };
  flood("A", 3);
  flood("B", 3);
  flood("C", 1);
  while (turns.waiting > 0) await nextTurn();
  assert.deepEqual(ran, ["A", "B", "C", "A", "B", "A", "B"]);
});

test("a socket's data is served between two turns, not after every queued slice", async (t) => {
  const turns = new ParseTurns();
  let slicesRun = 0;
  for (let i = 0; i < 200; i++) turns.take(() => slicesRun++);
  const server = net.createServer((socket) => socket.end("ping"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => server.close());
  const { port } = server.address() as net.AddressInfo;
  const heardAfter = await new Promise<number>((resolve) => {
    const client = net.connect(port, "127.0.0.1");
    client.on("data", () => {
      resolve(slicesRun);
      client.destroy();
    });
  });
  // Each turn is one slice, and the poll phase comes between turns: the reply
  // is read long before the 200 slices are through (were they run in one go, 200).
  assert.ok(heardAfter < 200, `the socket was read after ${heardAfter} of 200 slices`);
  while (turns.waiting > 0) await nextTurn();
});

test("two flooding terminals each get every byte in order, and report every byte parsed", async () => {
  const turns = new ParseTurns();
  const lines = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i}\r\n`).join("");
  const sessions = ["left", "right"].map((name) => {
    const term = new Terminal({ cols: 80, rows: 24, scrollback: 100, allowProposedApi: true });
    let parsed = 0;
    const batcher = new ParseBatcher(term, 100, (bytes) => (parsed += bytes), turns);
    const text = new TextEncoder().encode(lines(name, 40_000)); // about 600 KiB: floods, sliced
    for (let at = 0; at < text.length; at += 4096) batcher.push(text.subarray(at, at + 4096));
    return { name, term, batcher, total: text.length, parsed: () => parsed };
  });
  const deadline = Date.now() + 60_000;
  while (sessions.some((s) => s.parsed() < s.total) && Date.now() < deadline) await nextTurn();
  for (const s of sessions) {
    assert.equal(s.parsed(), s.total, `${s.name}: every byte reported parsed`);
    assert.equal(s.batcher.unparsedBytes, 0);
    const buffer = s.term.buffer.active;
    const last = buffer.getLine(buffer.baseY + buffer.cursorY - 1)?.translateToString(true);
    assert.equal(last, `${s.name} line 39999`, `${s.name}: the last line is on the screen`);
    const first = buffer.getLine(0)?.translateToString(true);
    assert.equal(first, `${s.name} line ${40_000 - 100 - 23}`, `${s.name}: the scrollback holds the lines before it, in order`);
    s.term.dispose();
  }
});
