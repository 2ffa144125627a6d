// The table of agent operations (lib/agent/protocol/operations.ts) against
// what is derived from it: every key is routed and validated, `unknown_op`
// lists the keys, and a malformed value in any field of any operation is
// answered `bad_request` naming that field, over a real socket to an
// in-process agent with fake sessions. The attached messages of the table
// are checked the same way, and garbled ones dropped.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AgentServer } from "../../../lib/agent/server/server.ts";
import { ROUTES } from "../../../lib/agent/server/router.ts";
import { SERVER_CHECKS } from "../../../lib/agent/server/request-checks.ts";
import { ATTACHED_MESSAGES, OPERATIONS, type Op } from "../../../lib/agent/protocol/operations.ts";
import { OPS, parseAttachedFrame, parseRequest } from "../../../lib/agent/protocol/validation.ts";
import { AgentError } from "../../../lib/agent/protocol/errors.ts";
import { FrameDecoder, frameJson, jsonFrame } from "../../../lib/agent/protocol/frames.ts";
import { PROTOCOL_VERSION } from "../../../lib/agent/protocol/version.ts";
import { fakeFactory } from "../../support/agent-fake-session.ts";
import { waitFor } from "../../support/wait.ts";

/** A valid request of every operation, every field given: a new operation fails below until it has one. */
const EXAMPLES: { readonly [O in Op]: Record<string, unknown> } = {
  hello: { version: PROTOCOL_VERSION },
  open: { argv: ["sh"], name: "n1", cols: 80, rows: 24, cwd: "/", env: { A: "1" }, term: "xterm", scrollback: 10, record: { path: "/tmp/o.cast", maxBytes: 4096, input: true }, shellIntegration: false },
  send: { session: "s", text: "a", keys: ["Enter"], bytes: "YQ==", wait: { text: ["$ "] } },
  screen: { session: "s", since: "h", scrollback: 1, styles: true },
  wait: { session: "s", regex: ["a+"], text: ["x"], stableMs: 1, ready: true, exit: true, timeoutMs: 5, commandDone: true, after: 0, new: true },
  exec: { session: "s", command: "true", timeoutMs: 5, interrupt: true, graceMs: 1, headBytes: 1, maxBytes: 1, headLines: 1, tailLines: 1, spill: "/tmp/e.out" },
  resize: { session: "s", cols: 80, rows: 24 },
  close: { session: "s", graceMs: 1, force: true },
  list: {},
  attach: { session: "s", cols: 80, rows: 24 },
  record: { session: "s", record: { path: "/tmp/r.cast" } },
  watch: { session: "s" },
  "agent-status": {},
  "agent-stop": { running: "keep" },
  "job-start": {
    argv: ["sh"], spill: "/tmp/s", tty: false, name: "j", attach: false, cwd: "/", env: {}, cols: 80, rows: 24,
    headBytes: 1, maxBytes: 1, graceMs: 1, record: { path: "/tmp/j.cast" },
  },
  jobs: {},
  "job-read": { job: "%1", from: 0, maxBytes: 10, wait: false, raw: false },
  fg: { job: "%1", cols: 80, rows: 24 },
  bg: { job: "%1" },
  "job-stop": { job: "%1", graceMs: 1 },
  reap: { all: true, graceMs: 1 },
  "command-line": { argv: ["jobs"], cwd: "/", env: { A: "1" }, columns: 80, stdoutTty: false, stderrTty: true, stdin: true },
};

/** Wrong for every kind of field: not a number, string, boolean, array, nor an object with what it needs. */
const WRONG = { nested: [] };

/** Every (operation, field) pair of the table. */
const FIELDS = OPS.flatMap((op) => Object.keys(OPERATIONS[op].fields).map((field) => [op, field] as const));

function rejection(fn: () => unknown): AgentError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AgentError) return error;
    throw error;
  }
  assert.fail("accepted");
}

test("every key of the table is routed, and every route is a key of the table", () => {
  assert.deepEqual(Object.keys(ROUTES).sort(), [...OPS].sort());
  assert.deepEqual(Object.keys(EXAMPLES).sort(), [...OPS].sort(), "every operation has an example in this test");
});

test("every operation's example passes validation with every field kept", () => {
  for (const op of OPS) {
    const request = parseRequest({ id: 7, op, ...EXAMPLES[op] }, SERVER_CHECKS);
    assert.deepEqual(request, { op, ...EXAMPLES[op], id: 7 }, op);
  }
});

test("a malformed value in any field of any operation is bad_request naming the field", () => {
  assert.ok(FIELDS.length > 60, `${FIELDS.length} fields`);
  for (const [op, field] of FIELDS) {
    const error = rejection(() => parseRequest({ id: 1, op, ...EXAMPLES[op], [field]: WRONG }, SERVER_CHECKS));
    assert.equal(error.code, "bad_request", `${op}.${field}: ${error.message}`);
    assert.ok(error.message.includes(`"${field}`), `${op}.${field}: ${error.message}`);
  }
});

test("an unknown op lists the table's keys, and a key of Object.prototype is not an op", () => {
  for (const op of ["nope", "toString", "constructor", "__proto__"]) {
    const error = rejection(() => parseRequest({ id: 1, op }, SERVER_CHECKS));
    assert.equal(error.code, "unknown_op");
    const listed = /; use one of (.*)$/.exec(error.message)?.[1]?.split(", ");
    assert.deepEqual(listed, Object.keys(OPERATIONS));
  }
});

test("the attached messages are checked from the table; garbled ones are dropped", () => {
  const frame = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  assert.deepEqual(Object.keys(ATTACHED_MESSAGES).sort(), ["attach-resize", "job-signal"]);
  assert.deepEqual(parseAttachedFrame(frame({ op: "attach-resize", cols: 100, rows: 30 })), { op: "attach-resize", cols: 100, rows: 30 });
  assert.equal(parseAttachedFrame(frame({ op: "attach-resize", cols: "100", rows: 30 })), null);
  assert.equal(parseAttachedFrame(frame({ op: "attach-resize", rows: 30 })), null);
  assert.deepEqual(parseAttachedFrame(frame({ op: "job-signal", signal: "SIGTSTP" })), { op: "job-signal", signal: "SIGTSTP" });
  // As before the table: a signal the agent does not forward ends the job with SIGTERM.
  assert.deepEqual(parseAttachedFrame(frame({ op: "job-signal", signal: "SIGKILL" })), { op: "job-signal", signal: "SIGTERM" });
  assert.equal(parseAttachedFrame(frame({ op: "hello", version: 1 })), null);
  assert.equal(parseAttachedFrame(frame([1])), null);
  assert.equal(parseAttachedFrame(new TextEncoder().encode("{not json")), null);
});

let dir: string;
let server: AgentServer;
let socket: string;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "corral-agent-ops-"));
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

test("over the socket: each field of each operation, malformed, gets bad_request naming it; unknown ops list the keys", async () => {
  const sock = net.createConnection(socket);
  const decoder = new FrameDecoder(64 * 1024 * 1024);
  const replies = new Map<number, { ok: boolean; error?: { code: string; message: string } }>();
  sock.on("data", (chunk: Buffer) => {
    for (const frame of decoder.push(new Uint8Array(chunk))) {
      const reply = frameJson(frame.body) as { id: number; ok: boolean };
      replies.set(reply.id, reply);
    }
  });
  sock.on("error", () => {});
  try {
    sock.write(jsonFrame({ id: 1, op: "hello", version: PROTOCOL_VERSION }));
    FIELDS.forEach(([op, field], i) => sock.write(jsonFrame({ id: 100 + i, op, ...EXAMPLES[op], [field]: WRONG })));
    sock.write(jsonFrame({ id: 2, op: "no-such-op" }));
    await waitFor(() => replies.size === FIELDS.length + 2, { timeoutMs: 60_000 });
    assert.equal(replies.get(1)?.ok, true);
    FIELDS.forEach(([op, field], i) => {
      const reply = replies.get(100 + i);
      assert.equal(reply?.error?.code, "bad_request", `${op}.${field}: ${JSON.stringify(reply)}`);
      assert.ok(reply.error.message.includes(`"${field}`), `${op}.${field}: ${reply.error.message}`);
    });
    const unknown = replies.get(2)?.error;
    assert.equal(unknown?.code, "unknown_op");
    assert.equal(unknown.message, `unknown op "no-such-op"; use one of ${Object.keys(OPERATIONS).join(", ")}`);
  } finally {
    sock.destroy();
  }
});
