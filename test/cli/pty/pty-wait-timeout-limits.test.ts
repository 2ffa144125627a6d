// `pty wait --timeout` is checked where it enters, the CLI flag and the
// agent's `timeoutMs` field, against one limit (lib/core/duration.ts): 0 to
// MAX_DURATION_MS. Each edge is tried one below, at and one above each end;
// lib/pty trusts what the edges let through.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { MAX_DURATION_MS } from "../../../lib/core/duration.ts";
import { MAX_MS } from "../../../lib/agent/protocol/agent-fields.ts";

let agent: PrivateAgent;

before(async () => {
  agent = privateAgent("wait-limits");
  await agent.ok(["pty", "open", "--name", "lim", "--", "sh", "-c", "echo limits-ready; exec cat"]);
  await agent.ok(["pty", "wait", "lim", "--text", "limits-ready", "--timeout", "60s"]);
});

after(async () => {
  await agent.run(["pty", "close", "lim"]);
  await agent.stop();
});

test("the CLI flag and the agent's field share one upper limit", () => {
  assert.equal(MAX_MS, MAX_DURATION_MS);
});

test("pty wait --timeout through the CLI: -1ms and MAX+1 refused (2), 0, 1ms, MAX-1 and MAX accepted", { timeout: 120_000 }, async () => {
  const below = await agent.run(["pty", "wait", "lim", "--text", "limits-ready", "--timeout=-1ms"]);
  assert.equal(below.code, 2, below.stderr);
  assert.match(below.stderr, /^corral: --timeout: "-1ms" is not a duration; /);
  for (const zeroish of ["0", "1ms"]) {
    const r = await agent.run(["pty", "wait", "lim", "--text", "never-shown-text", "--timeout", zeroish]);
    assert.equal(r.code, 124, `--timeout ${zeroish}: ${r.stderr}`);
  }
  for (const top of [MAX_DURATION_MS - 1, MAX_DURATION_MS]) {
    const r = await agent.run(["pty", "wait", "lim", "--text", "limits-ready", "--timeout", `${top}ms`]);
    assert.equal(r.code, 0, `--timeout ${top}ms: ${r.stderr}`);
  }
  const above = await agent.run(["pty", "wait", "lim", "--text", "limits-ready", "--timeout", `${MAX_DURATION_MS + 1}ms`]);
  assert.equal(above.code, 2, above.stderr);
  assert.match(above.stderr, /^corral: --timeout: "2147483648ms" is too long a duration; /);
});

test("wait's timeoutMs through connect: -1 and MAX+1 refused (bad_request), 0, 1, MAX-1 and MAX accepted", { timeout: 120_000 }, async () => {
  const ask = (timeoutMs: number, text: string) => ({ op: "wait", session: "lim", text, timeoutMs, ref: timeoutMs });
  const requests = [
    ask(-1, "limits-ready"),
    ask(0, "never-shown-text"),
    ask(1, "never-shown-text"),
    ask(MAX_MS - 1, "limits-ready"),
    ask(MAX_MS, "limits-ready"),
    ask(MAX_MS + 1, "limits-ready"),
  ];
  const result = await agent.run(["connect"], { input: requests.map((r) => JSON.stringify(r)).join("\n") + "\n" });
  assert.equal(result.code, 0, result.stderr);
  const replies = result.stdout.toString("utf8").trim().split("\n").map((l) => JSON.parse(l) as { ref: number; ok: boolean; fired?: string; error?: { code: string; message: string } });
  const by = (ref: number) => replies.find((r) => r.ref === ref);
  assert.equal(by(-1)?.error?.code, "bad_request");
  assert.match(by(-1)?.error?.message ?? "", /timeoutMs/);
  assert.equal(by(0)?.error?.code, "timeout");
  assert.equal(by(1)?.error?.code, "timeout");
  assert.equal(by(MAX_MS - 1)?.fired, "text");
  assert.equal(by(MAX_MS)?.fired, "text");
  assert.equal(by(MAX_MS + 1)?.error?.code, "bad_request");
  assert.match(by(MAX_MS + 1)?.error?.message ?? "", /timeoutMs/);
});
