// The screen budget charges what screens hold, and under pressure takes
// memory back from the least active sessions: first idle emulators that can
// be rebuilt (nothing lost), then the oldest scrollback lines, which the
// session's screen then reports (scrollbackTrimmed). An in-process agent with
// real terminal sessions and a small budget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AgentServer } from "../../../lib/agent/server/server.ts";
import { AgentClient } from "../../../lib/agent/client/client.ts";
import { ptySessionFactory } from "../../../lib/agent/server/pty-sessions.ts";

let dir: string;
let server: AgentServer;
let socket: string;
const BUDGET = 100_000;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "corral-screen-pressure-"));
  socket = path.join(dir, "agent.sock");
  server = await AgentServer.listen({
    socket,
    idleTimeoutMs: 600_000,
    openSession: ptySessionFactory(dir),
    defaults: { cols: 80, rows: 24, term: "xterm-256color", scrollback: 1000, waitTimeoutMs: 60_000, closeGraceMs: 1000 },
    budgets: { screenCells: BUDGET },
  });
});

after(async () => {
  await server.stop("test over");
  rmSync(dir, { recursive: true, force: true });
});

test("screens are charged what they hold; under pressure the least active give back, the oldest scrollback last and said", { timeout: 120_000 }, async () => {
  const c = await AgentClient.open(socket);
  await c.hello();
  const opened: string[] = [];
  try {
    // A fills 1000 lines of scrollback (80 x 1024 cells held) with more output than its history keeps.
    const a = (await c.call({ op: "open", argv: ["sh", "-c", "seq 1 10000; exec cat"], scrollback: 1000 })).session.id;
    opened.push(a);
    const done = await c.call({ op: "wait", session: a, text: ["10000"], timeoutMs: 60_000 });
    assert.equal(done.fired, "text");
    // Small idle sessions: each charged its 80 x 24 cells, not 80 x (24 + 1000).
    for (let i = 0; i < 5; i++) opened.push((await c.call({ op: "open", argv: ["cat"] })).session.id);
    const { screen: before } = await c.call({ op: "screen", session: a, scrollback: 1000 });
    assert.equal(before.scrollback?.length, 1000);
    assert.equal(before.scrollbackTrimmed, undefined, "nothing trimmed while it fits");
    // A large one does not fit beside A's full scrollback: the idle small ones drop their
    // emulators (lossless), then A, the least recently active, loses its oldest lines.
    opened.push((await c.call({ op: "open", argv: ["cat"], cols: 200, rows: 100 })).session.id);
    const { screen: after } = await c.call({ op: "screen", session: a, scrollback: 1000 });
    assert.ok((after.scrollbackTrimmed ?? 0) > 0, `A says its scrollback was trimmed: ${JSON.stringify(after.scrollbackTrimmed)}`);
    assert.equal(after.scrollback?.length, 1000 - (after.scrollbackTrimmed ?? 0), "the trimmed lines are gone from --scrollback");
    assert.deepEqual(after.lines, before.lines, "the visible screen is untouched");
    assert.equal(after.scrollback?.at(-1), before.scrollback?.at(-1), "the newest scrollback lines are kept");
    // A small idle session was rebuilt intact when read.
    const { screen: small } = await c.call({ op: "screen", session: opened[1] as string });
    assert.equal(small.alive, true);
    assert.equal(small.scrollbackTrimmed, undefined, "a dropped emulator loses nothing");
  } finally {
    for (const session of opened) await c.call({ op: "close", session, force: true });
    await c.call({ op: "reap", all: true, graceMs: 100 });
    c.close();
  }
});
