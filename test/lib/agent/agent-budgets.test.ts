// The agent's global budgets (issue 15, item 5) against
// an in-process server with fake sessions and small budgets: unfinished
// frames across connections, replies a client does not read, screen cells
// across sessions (edges at limit-1, limit, limit+1).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AgentServer } from "../../../lib/agent/server/server.ts";
import { AgentClient } from "../../../lib/agent/client/client.ts";
import { AgentError, PROTOCOL_VERSION, Tag } from "../../../lib/agent/protocol/messages.ts";
import { encodeFrame, FrameDecoder } from "../../../lib/core/frame.ts";
import { fakeFactory } from "../../support/agent-fake-session.ts";
import { waitFor } from "../../support/wait.ts";

let dir: string;
let server: AgentServer;
let socket: string;

const FRAME_BUDGET = 1024 * 1024;
const CELL_BUDGET = 100_000;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "corral-agent-budgets-"));
  socket = path.join(dir, "agent.sock");
  server = await AgentServer.listen({
    socket,
    idleTimeoutMs: 600_000,
    openSession: fakeFactory,
    defaults: { cols: 80, rows: 24, term: "xterm-256color", scrollback: 0, waitTimeoutMs: 60_000, closeGraceMs: 1000 },
    budgets: { pendingFrameBytes: FRAME_BUDGET, unsentReplyBytes: 64 * 1024, screenCells: CELL_BUDGET },
  });
});

after(async () => {
  await server.stop("test over");
  rmSync(dir, { recursive: true, force: true });
});

async function client(): Promise<AgentClient> {
  const c = await AgentClient.open(socket);
  await c.hello();
  return c;
}

/** A raw connection: write bytes, collect decoded JSON replies, see when it closes. */
function raw() {
  const sock = net.createConnection(socket);
  const decoder = new FrameDecoder(64 * 1024 * 1024);
  const replies: Array<Record<string, unknown>> = [];
  let closed = false;
  sock.on("data", (chunk: Buffer) => {
    for (const frame of decoder.push(new Uint8Array(chunk))) replies.push(JSON.parse(Buffer.from(frame.body).toString()));
  });
  sock.on("error", () => {});
  sock.on("close", () => (closed = true));
  const json = (value: unknown) => sock.write(encodeFrame(Tag.json, Buffer.from(JSON.stringify(value))));
  return { sock, replies, json, isClosed: () => closed };
}

/** The first `bytes` of a frame whose declared body is `total` bytes of a valid request. */
function partialFrame(total: number, bytes: number): { head: Buffer; rest: Buffer } {
  const body = Buffer.from(JSON.stringify({ id: 9, op: "list", pad: "x".repeat(total - 30) }));
  const whole = Buffer.from(encodeFrame(Tag.json, body));
  return { head: whole.subarray(0, bytes), rest: whole.subarray(bytes) };
}

test("unfinished frames across connections: the one that passes the budget is refused, the others go on", async () => {
  const a = raw();
  const b = raw();
  const frames = new Map([[a, partialFrame(900 * 1024, 600 * 1024)], [b, partialFrame(900 * 1024, 500 * 1024)]]);
  // 600 KiB + 500 KiB pass the 1 MiB budget: whichever connection's bytes push
  // the total over is refused (arrival order is the kernel's business).
  for (const [r, frame] of frames) r.sock.write(frame.head);
  const refused = await waitFor(() => (a.isClosed() ? a : b.isClosed() ? b : undefined), { what: "the connection over budget to be closed" });
  const survivor = refused === a ? b : a;
  const refusal = refused.replies[0] as { ok: boolean; error: { code: string; message: string } };
  assert.equal(refusal.ok, false);
  assert.equal(refusal.error.code, "limit_exceeded");
  assert.match(refusal.error.message, /unfinished requests across its connections.*budget of 1\.0 MiB/);
  // The other is untouched: it finishes its frame and gets its answer.
  survivor.sock.write(frames.get(survivor)?.rest as Buffer);
  await waitFor(() => survivor.replies.length > 0, { what: "the survivor's reply" });
  assert.equal(survivor.isClosed(), false);
  // The refused bytes were released: a third connection's frame of the same size fits.
  const c = raw();
  const frameC = partialFrame(900 * 1024, 500 * 1024);
  c.sock.write(frameC.head);
  c.sock.write(frameC.rest);
  await waitFor(() => c.replies.length > 0, { what: "c's reply" });
  assert.equal(c.isClosed(), false);
  for (const r of [a, b, c]) r.sock.destroy();
});

test("screen cells: limit-1 and limit fit, limit+1 is refused with what to do; resize is checked too", async () => {
  const c = await client();
  const opened: string[] = [];
  try {
    // 100 x 999 = 99,900 cells, then 10 x 10 = 100 more would be exactly 100,000.
    opened.push((await c.call({ op: "open", argv: ["big"], cols: 100, rows: 999 })).session.id);
    await assert.rejects(c.call({ op: "open", argv: ["two"], cols: 101, rows: 1 }), (e: AgentError) =>
      e.code === "limit_exceeded" && /needs 101 terminal cells .* already hold 99900 of its 100000; free some/.test(e.message));
    opened.push((await c.call({ op: "open", argv: ["fits"], cols: 10, rows: 10 })).session.id);
    await assert.rejects(c.call({ op: "open", argv: ["one more"], cols: 1, rows: 1 }), (e: AgentError) => e.code === "limit_exceeded");
    // A session that cannot tell what it holds (these fakes) counts cols x (rows + scrollback).
    await assert.rejects(c.call({ op: "resize", session: opened[1] as string, cols: 11, rows: 10 }), (e: AgentError) =>
      e.code === "limit_exceeded" && /session \d+ at 11x10/.test(e.message));
    const shrunk = await c.call({ op: "resize", session: opened[0] as string, cols: 100, rows: 900 });
    assert.equal(shrunk.session.size.rows, 900);
    // A new session is charged what it holds when it starts (its rows), not its whole possible scrollback.
    opened.push((await c.call({ op: "open", argv: ["sb"], cols: 100, rows: 1, scrollback: 500 })).session.id);
  } finally {
    for (const session of opened) await c.call({ op: "close", session, force: true });
    await c.call({ op: "reap", all: true, graceMs: 100 });
    c.close();
  }
});

test("a client that does not read its replies is paused; its requests wait until it reads", async () => {
  const c = await client();
  const helpers: string[] = [];
  try {
    // Sessions with long names make each `list` reply about 10 KiB.
    for (let i = 0; i < 40; i++) helpers.push((await c.call({ op: "open", argv: ["x".repeat(200)], cols: 2, rows: 2 })).session.id);
    const r = raw();
    r.sock.pause();
    r.json({ id: 1, op: "hello", version: PROTOCOL_VERSION });
    const PAIRS = 400;
    for (let i = 0; i < PAIRS; i++) {
      r.json({ id: 2 + 2 * i, op: "list" });
      r.json({ id: 3 + 2 * i, op: "open", argv: ["marker"], cols: 1, rows: 1 });
    }
    const markers = async () => (await c.call({ op: "list" })).sessions.filter((s) => s.argv[0] === "marker").length;
    await waitFor(async () => (await markers()) > 0, { what: "the reader-less client's first requests to run" });
    // 4 MB of replies cannot all sit unread: the agent stops short of the last open.
    // (A limit by count, never by time: on the old code all 400 ran at once.)
    await waitFor(async () => {
      const before = await markers();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return before === (await markers()) ? before : undefined;
    }, { what: "the paused client's requests to stop running" });
    assert.ok((await markers()) < PAIRS, `all ${PAIRS} requests ran although nothing was read`);
    r.sock.resume();
    await waitFor(() => r.replies.length === 2 * PAIRS + 1, { what: "every reply once the client reads", timeoutMs: 60_000 });
    assert.equal(await markers(), PAIRS);
    r.sock.destroy();
  } finally {
    for (const s of (await c.call({ op: "list" })).sessions) await c.call({ op: "close", session: s.id, force: true });
    await c.call({ op: "reap", all: true, graceMs: 100 });
    c.close();
  }
});
