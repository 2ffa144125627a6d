// An adversary's client against a real agent process: twenty connections,
// each sending all but the last byte of an 8 MiB request frame (the largest
// allowed) and then waiting. The agent-wide budget on unfinished frames
// (32 MiB, lib/agent/server/agent-budgets.ts; counted by the size each frame declares) refuses the connections that
// would pass it, each with one limit_exceeded reply naming the budget, and
// closes them; the agent's memory grows by about the budget, not by twenty
// frames, and a second round is refused the same way. The agent answers
// throughout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import net from "node:net";
import { encodeFrame, FrameDecoder } from "../../../lib/core/frame.ts";
import { MAX_FRAME_BYTES, Tag } from "../../../lib/agent/protocol/frames.ts";
import { DEFAULT_BUDGETS } from "../../../lib/agent/server/agent-budgets.ts";
import { agentFor } from "../../support/jobs-fixture.ts";
import { waitFor } from "../../support/wait.ts";

const CONNECTIONS = 20;
const MIB = 1024 * 1024;

function rssBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

/** One hostile connection: sends all but the last byte of a maximal frame, then waits. */
function holdUnfinishedFrame(socket: string) {
  const sock = net.createConnection(socket);
  const decoder = new FrameDecoder(MAX_FRAME_BYTES);
  const replies: Array<{ ok?: boolean; error?: { code: string; message: string } }> = [];
  let closed = false;
  let written = false;
  sock.on("data", (chunk: Buffer) => {
    for (const frame of decoder.push(new Uint8Array(chunk))) replies.push(JSON.parse(Buffer.from(frame.body).toString()));
  });
  sock.on("error", () => {});
  sock.on("close", () => (closed = true));
  const body = Buffer.from(JSON.stringify({ id: 1, op: "list", pad: "x".repeat(MAX_FRAME_BYTES - 1 - 40) }));
  const whole = Buffer.from(encodeFrame(Tag.json, body.subarray(0, MAX_FRAME_BYTES - 1)));
  sock.write(whole.subarray(0, whole.length - 1), () => (written = true));
  return {
    replies,
    done: () => closed || written,
    refused: () => replies.some((r) => r.error?.code === "limit_exceeded"),
    close: () => sock.destroy(),
    closed: () => closed,
  };
}

async function round(socket: string) {
  const conns = Array.from({ length: CONNECTIONS }, () => holdUnfinishedFrame(socket));
  await waitFor(() => conns.every((c) => c.done()), { timeoutMs: 120_000, what: "every connection to be refused or to have sent its bytes" });
  return conns;
}

test(`${CONNECTIONS} connections each holding an unfinished 8 MiB frame: refused past the budget, memory bounded and reused`, { timeout: 300_000 }, async (t) => {
  const agent = agentFor(t, "frames-mem");
  await agent.ok(["agent", "start"]);
  const pid = agent.pid();
  assert.ok(pid !== undefined, "the agent wrote its pid");
  const before = rssBytes(pid);
  const budget = DEFAULT_BUDGETS.pendingFrameBytes;

  const first = await round(agent.socket);
  // Refused: closed by the agent (its one reply may be lost when our write meets the closed socket first).
  const refused = first.filter((c) => c.closed());
  const mayHold = Math.floor(budget / MAX_FRAME_BYTES);
  assert.ok(refused.length >= CONNECTIONS - mayHold, `at least ${CONNECTIONS - mayHold} refused, got ${refused.length}`);
  const said = refused.filter((c) => c.refused());
  assert.ok(said.length > 0, "the refused connections were told why");
  for (const c of said) {
    assert.match(c.replies[0]?.error?.message ?? "", /unfinished requests across its connections; this one would pass the budget of 32\.0 MiB/);
  }
  const peak = rssBytes(pid);
  t.diagnostic(`agent RSS: ${(before / MIB).toFixed(0)} MiB before, ${(peak / MIB).toFixed(0)} MiB with ${CONNECTIONS - refused.length} frames held`);
  // Held frames plus the reads not yet collected: measured 50-65 MiB for the 32 MiB budget; twenty
  // frames held would be 160 MiB and more. The bound sits between, far from both.
  assert.ok(peak - before < 4 * budget, `the agent grew by ${((peak - before) / MIB).toFixed(0)} MiB: about the budget (${budget / MIB} MiB), not by ${CONNECTIONS} frames`);
  assert.equal((await agent.run(["pty", "list", "--json"])).code, 0, "the agent answers while the frames are held");
  for (const c of first) c.close();

  // A second round is refused past the budget the same way: the first round's frames were let go.
  // How much of the first round's memory the second reuses depends on when the collector runs
  // (two rounds: +0 to +25 MiB; five: up to 160 MiB above the start): said, not asserted.
  const second = await round(agent.socket);
  assert.ok(second.filter((c) => c.closed()).length >= CONNECTIONS - mayHold, "the second round is refused past the budget too");
  t.diagnostic(`agent RSS after a second round: ${(rssBytes(pid) / MIB).toFixed(0)} MiB`);
  for (const c of second) c.close();
  assert.equal((await agent.run(["pty", "list", "--json"])).code, 0, "the agent answers after both rounds");
});
