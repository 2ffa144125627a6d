// Fairness between connections (issue 15, item 6), by order, never by time.
// Two connections to one in-process agent with fake sessions: the first
// delivers 5,000 pipelined requests in one read; the second's request
// arrives on the next turn of the event loop (what a burst used to hold up
// for its whole length). It must be answered within a few turns of the
// burst, not after it. Latency figures: npm run bench -- fairness.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { AgentConnection } from "../../../lib/agent/server/connection.ts";
import type { AgentContext } from "../../../lib/agent/server/agent-context.ts";
import { DEFAULT_BUDGETS, PendingFrameLedger } from "../../../lib/agent/server/agent-budgets.ts";
import { SessionRegistry } from "../../../lib/agent/server/session-registry.ts";
import { JobTable } from "../../../lib/jobs/job-table.ts";
import { PROTOCOL_VERSION, Tag } from "../../../lib/agent/protocol/messages.ts";
import { encodeFrame, FrameDecoder } from "../../../lib/core/frame.ts";
import { fakeFactory } from "../../support/agent-fake-session.ts";
import { waitFor } from "../../support/wait.ts";

/** Just enough of a net.Socket: data goes in by emit, replies are decoded as written. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  writable = true;
  writableLength = 0;
  #decoder = new FrameDecoder(64 * 1024 * 1024);
  constructor(readonly onReply: (reply: { id: number; ok: boolean }) => void) {
    super();
  }
  write(bytes: Uint8Array): boolean {
    for (const frame of this.#decoder.push(bytes)) this.onReply(JSON.parse(Buffer.from(frame.body).toString()));
    return true;
  }
  pause(): void {}
  resume(): void {}
  end(): void {
    this.destroy();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.writable = false;
    this.emit("close");
  }
}

function frames(requests: readonly object[]): Buffer {
  return Buffer.concat(requests.map((r) => Buffer.from(encodeFrame(Tag.json, Buffer.from(JSON.stringify(r))))));
}

test("a burst delivered in one read does not hold up another connection's next-turn request", async () => {
  const ctx: AgentContext = {
    registry: new SessionRegistry(),
    jobs: new JobTable(),
    stateDir: "/nonexistent",
    openSession: fakeFactory,
    defaults: { cols: 80, rows: 24, term: "xterm-256color", scrollback: 0, waitTimeoutMs: 1000, closeGraceMs: 100 },
    budgets: DEFAULT_BUDGETS,
    startedAt: Date.now(),
    socket: "/nonexistent/agent.sock",
    requestStop: () => {},
    touch: () => {},
    filesReplaced: () => false,
    installRoot: null,
    log: () => {},
  };
  const ledger = new PendingFrameLedger(DEFAULT_BUDGETS.pendingFrameBytes);
  const order: string[] = [];
  const burstSocket = new FakeSocket((reply) => order.push(`burst:${reply.id}`));
  const otherSocket = new FakeSocket((reply) => order.push(`other:${reply.id}`));
  new AgentConnection(burstSocket as unknown as Socket, ctx, () => {}, ledger);
  new AgentConnection(otherSocket as unknown as Socket, ctx, () => {}, ledger);
  const BURST = 5000;
  const hello = { id: 0, op: "hello", version: PROTOCOL_VERSION };
  burstSocket.emit("data", frames([hello, ...Array.from({ length: BURST }, (_, i) => ({ id: i + 1, op: "list" }))]));
  setImmediate(() => otherSocket.emit("data", frames([hello, { id: 1, op: "list" }])));
  await waitFor(() => order.length === BURST + 3, { what: "every reply" });
  const before = order.slice(0, order.indexOf("other:1")).filter((r) => r.startsWith("burst:") && r !== "burst:0").length;
  // Before turns: all 5,000 (the burst ran in one go). With turns of 8: a handful.
  assert.ok(before < 100, `${before} of the burst's ${BURST} requests were answered before the other connection's one`);
  burstSocket.destroy();
  otherSocket.destroy();
});
