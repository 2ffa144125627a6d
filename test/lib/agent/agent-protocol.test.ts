// The agent's protocol against an in-process server with fake sessions:
// hello and versions, typed errors for every kind of bad request, and a fuzz
// of frames and requests that must never crash the agent nor disturb
// another client's session.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { mkdtempSync, rmSync, statSync } from "node:fs";
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

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "corral-agent-proto-"));
  socket = path.join(dir, "agent.sock");
  server = await AgentServer.listen({
    socket,
    idleTimeoutMs: 600_000,
    openSession: fakeFactory,
    defaults: { cols: 80, rows: 24, term: "xterm-256color", scrollback: 0, waitTimeoutMs: 60_000, closeGraceMs: 1000 },
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

test("socket is 0600 and hello answers with the version", async () => {
  assert.equal(statSync(socket).mode & 0o777, 0o600);
  const c = await AgentClient.open(socket);
  const hello = await c.hello();
  assert.equal(hello.version, PROTOCOL_VERSION);
  c.close();
});

test("a version mismatch names both numbers and how to restart", async () => {
  const r = raw();
  r.json({ id: 1, op: "hello", version: PROTOCOL_VERSION + 41 });
  r.json({ id: 2, op: "list" });
  r.json({ id: 3, op: "agent-status" });
  await waitFor(() => r.replies.length === 3);
  type R = { ok: boolean; error: { code: string; message: string } };
  const [mismatch, list, status] = r.replies as [R, R, R];
  assert.equal(mismatch.error.code, "version_mismatch");
  assert.match(mismatch.error.message, new RegExp(`${PROTOCOL_VERSION}.*${PROTOCOL_VERSION + 41}`));
  assert.match(mismatch.error.message, /corral agent restart/);
  assert.equal(list.ok, false);
  assert.equal(status.ok, true, "status stays answerable to find a stale agent");
  r.sock.destroy();
});

test("bad requests get typed errors naming the field", async () => {
  const r = raw();
  r.json({ id: 1, op: "hello", version: PROTOCOL_VERSION });
  r.json({ id: 2, op: "nope" });
  r.json({ id: 3, op: "send", session: 7 });
  r.json({ id: 4, op: "open", argv: [] });
  r.json({ id: 5, op: "resize", session: "x", cols: "80", rows: 24 });
  r.json({ id: 6, op: "screen", session: "does-not-exist" });
  r.json({ id: 7, op: "wait", session: "x", regex: "(" });
  r.json({ op: "list" });
  r.json([1, 2, 3]);
  r.json({ id: 10, op: "open", argv: ["sh"], env: { A: 1 } });
  await waitFor(() => r.replies.length === 10);
  const codes = r.replies.map((reply) => (reply.error as { code?: string } | undefined)?.code ?? "ok");
  assert.deepEqual(codes, [
    "ok", "unknown_op", "bad_request", "bad_request", "bad_request", "unknown_session", "bad_request", "bad_request",
    "bad_request", "bad_request",
  ]);
  assert.match(String((r.replies[4]?.error as { message: string }).message), /"cols"/);
  r.sock.destroy();
});

test("sessions: open, send, screen changed/hash, names, unknown key sends nothing", async () => {
  const c = await client();
  const opened = await c.call({ op: "open", argv: ["fake"], name: "proto-a" });
  await c.call({ op: "send", session: "proto-a", text: "hello", keys: ["Enter"] });
  const { screen: first } = await c.call({ op: "screen", session: opened.session.id });
  assert.deepEqual(first.lines, ["hello", ""]);
  assert.equal(first.changed, true);
  const { screen: second } = await c.call({ op: "screen", session: "proto-a" });
  assert.equal(second.changed, false);
  assert.equal(second.hash, first.hash);
  await assert.rejects(c.call({ op: "send", session: "proto-a", text: "zzz", keys: ["NoSuchKey"] }), (e: AgentError) => e.code === "unknown_key");
  const { screen: third } = await c.call({ op: "screen", session: "proto-a" });
  assert.equal(third.changed, false, "nothing was sent with the bad key");
  await assert.rejects(c.call({ op: "open", argv: ["fake"], name: "proto-a" }), (e: AgentError) => e.code === "name_taken");
  const { session: closed } = await c.call({ op: "close", session: "proto-a" });
  assert.equal(closed.exit?.signal, "SIGHUP");
  const { session: again } = await c.call({ op: "close", session: "proto-a" });
  assert.deepEqual(again.exit, closed.exit, "close is idempotent");
  const { sessions } = await c.call({ op: "list" });
  assert.equal(sessions.find((s) => s.name === "proto-a")?.alive, false);
  c.close();
});

test("names: an exited session's name moves to a new one; the old is retired, readable by id", async () => {
  const c = await client();
  const first = (await c.call({ op: "open", argv: ["fake"], name: "rerun" })).session;
  await c.call({ op: "send", session: "rerun", text: "exit", keys: ["Enter"] });
  await waitFor(async () => !(await c.call({ op: "screen", session: first.id })).screen.alive, { what: "the first session to exit" });
  const second = (await c.call({ op: "open", argv: ["fake"], name: "rerun" })).session;
  assert.notEqual(second.id, first.id);
  const { screen } = await c.call({ op: "screen", session: "rerun" });
  assert.equal(screen.id, second.id, "the name means the new session");
  assert.equal(screen.alive, true);
  const { sessions } = await c.call({ op: "list" });
  assert.deepEqual(sessions.filter((s) => s.name === "rerun").map((s) => [s.id, s.retired, s.alive]), [[first.id, true, false], [second.id, false, true]]);
  assert.equal((await c.call({ op: "screen", session: first.id })).screen.exit?.code, 0, "the retired one is readable by id");
  await assert.rejects(c.call({ op: "open", argv: ["fake"], name: "rerun" }), (e: AgentError) => e.code === "name_taken", "a live session keeps its name");
  await c.call({ op: "close", session: second.id });
  c.close();
});

test("fuzz: random frames, wrong types and huge lengths never disturb another session", async () => {
  const c = await client();
  const keep = await c.call({ op: "open", argv: ["fake"] });
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const values: unknown[] = [null, 0, -1, 1.5, "x", "", true, [], {}, [1], { a: 1 }, "9".repeat(400), 2 ** 60];
  const fields = ["id", "op", "session", "argv", "text", "keys", "bytes", "cols", "rows", "timeoutMs", "env", "since", "name"];
  const ops = ["hello", "open", "send", "screen", "wait", "resize", "close", "list", "attach", "agent-status", "bogus"];
  for (let round = 0; round < 40; round++) {
    const r = raw();
    const kind = rand(4);
    if (kind === 0) {
      // Random bytes, possibly a hostile length prefix.
      const bytes = new Uint8Array(1 + rand(64)).map(() => rand(256));
      r.sock.write(bytes);
    } else if (kind === 1) {
      const huge = new Uint8Array(5);
      new DataView(huge.buffer).setUint32(0, 0x7fffffff - rand(1000));
      r.sock.write(huge);
    } else {
      r.json({ id: 1, op: "hello", version: PROTOCOL_VERSION });
      for (let i = 0; i < 10; i++) {
        const request: Record<string, unknown> = { id: rand(100), op: ops[rand(ops.length)] };
        for (let f = 0; f < 4; f++) request[fields[rand(fields.length)] as string] = values[rand(values.length)];
        if (request.op === "agent-stop" || request.op === "open" && Array.isArray(request.argv) && request.argv.length) continue;
        if (request.op === "wait") request.timeoutMs = 10;
        if (request.op === "close") continue;
        r.json(request);
      }
      if (kind === 3) r.sock.write(encodeFrame(Tag.bytes, new Uint8Array([1, 2, 3])));
    }
    r.sock.end();
    await waitFor(() => r.isClosed(), { what: "the fuzz connection to close" });
    await c.call({ op: "send", session: keep.session.id, text: `r${round}`, keys: ["Enter"] });
  }
  const { screen } = await c.call({ op: "screen", session: keep.session.id });
  assert.equal(screen.alive, true);
  assert.ok(screen.lines.includes("r39"));
  const status = await c.call({ op: "agent-status" });
  assert.equal(status.pid, process.pid);
  await c.call({ op: "close", session: keep.session.id });
  c.close();
});

test("an oversized frame is refused before buffering and only that connection closes", async () => {
  const r = raw();
  const head = new Uint8Array(5);
  new DataView(head.buffer).setUint32(0, 100 * 1024 * 1024);
  r.sock.write(head);
  await waitFor(() => r.isClosed());
  assert.match(String((r.replies[0]?.error as { message: string }).message), /exceeds the maximum/);
  const c = await client();
  await c.call({ op: "list" });
  c.close();
});
