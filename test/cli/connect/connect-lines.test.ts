// `corral connect`: JSON lines in, one reply line per request, in order,
// ref echoed; bad lines answered, not fatal; the same ops as the commands.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";
import { isAlive } from "../../support/processes.ts";

let agent: PrivateAgent;

before(() => {
  agent = privateAgent("connect");
});

after(async () => {
  await agent.stop();
});

type Reply = Record<string, unknown> & { ok: boolean; error?: { code: string; message: string } };

/** A live `corral connect`: send one line, read one reply. */
function connect() {
  const [file, ...args] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...args, "connect"], {
    cwd: repoRoot,
    env: { ...process.env, ...agent.env, CONNECT_TEST_SECRET_TOKEN: "hunter2" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(request: unknown): Promise<Reply> {
      child.stdin.write(typeof request === "string" ? `${request}\n` : `${JSON.stringify(request)}\n`);
      const next = await lines.next();
      if (next.done === true) throw new Error("connect closed its output");
      return JSON.parse(next.value) as Reply;
    },
    /** Writes every request at once (pipelined), then reads one reply each. */
    async askAll(requests: unknown[]): Promise<Reply[]> {
      child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(""));
      const replies: Reply[] = [];
      for (const _ of requests) {
        const next = await lines.next();
        if (next.done === true) throw new Error("connect closed its output");
        replies.push(JSON.parse(next.value) as Reply);
      }
      return replies;
    },
    /** On a failed test: the child must not outlive it. */
    kill(): void {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
    async end(): Promise<number | null> {
      child.stdin.end();
      return await new Promise((resolve) => child.on("close", (code) => resolve(code)));
    },
  };
}

test("a whole exchange on one connection", async (t) => {
  const c = connect();
  t.after(() => c.kill());
  const opened = await c.ask({ op: "open", argv: ["bash", "--norc", "--noprofile"], name: "cb", cols: 60, rows: 10, env: { PS1: "cb$ " }, ref: "o" });
  assert.equal(opened.ok, true);
  assert.equal(opened.ref, "o");
  assert.deepEqual((opened.session as { size: unknown }).size, { cols: 60, rows: 10 });
  const ready = await c.ask({ op: "wait", session: "cb", text: "cb$ ", timeoutMs: 20_000 });
  assert.equal(ready.fired, "text");
  // send then wait in one pipelined go. The anchored regex matches only the
  // output line, never the echoed command line, so the wait needs no --new:
  // with --new, output that arrived before the wait took its first look
  // would count as old and the wait would time out (a race seen in CI).
  const [sent, waited] = await c.askAll([
    { op: "send", session: "cb", text: "echo $CONNECT_TEST_SECRET_TOKEN-$((2+2))-done", keys: ["Enter"] },
    { op: "wait", session: "cb", regex: "^-4-done$", timeoutMs: 20_000, ref: 2 },
  ]) as [Reply, Reply];
  assert.equal(sent.ok, true);
  assert.equal(waited.ref, 2);
  assert.equal(waited.fired, "regex", "the secret was scrubbed, so the line is -4-done");
  assert.equal(typeof sent.at, "number");
  // The same in one request, and a wait after the position the send answered.
  const both = await c.ask({ op: "send", session: "cb", text: "echo $((6*7))", keys: ["Enter"], wait: { regex: ["^(4)(2)$"], timeoutMs: 20_000 } });
  const match = (both.wait as { match: { groups: string[]; position: number } }).match;
  assert.deepEqual(match.groups, ["4", "2"]);
  assert.ok(match.position > (both.at as number));
  const later = await c.ask({ op: "wait", session: "cb", after: both.at, text: "42", timeoutMs: 20_000 });
  assert.equal(later.fired, "text", "the answer counts although it arrived before the wait began");
  const { screen } = await c.ask({ op: "screen", session: "cb" }) as unknown as { screen: Reply };
  assert.equal((screen.lines as string[]).length, 10);
  assert.deepEqual(screen.size, { cols: 60, rows: 10 });
  assert.ok((screen.lines as string[]).includes("-4-done"));
  assert.equal(typeof screen.hash, "string");
  const resized = await c.ask({ op: "resize", session: "cb", cols: 70, rows: 12 });
  assert.deepEqual((resized.session as { size: unknown }).size, { cols: 70, rows: 12 });
  const list = await c.ask({ op: "list" });
  const entry = (list.sessions as Array<{ name: string; pid: number }>).find((s) => s.name === "cb");
  assert.ok(entry);
  const closed = await c.ask({ op: "close", session: "cb", graceMs: 1000 });
  assert.equal(closed.ok, true);
  assert.equal(isAlive(entry.pid), false);
  assert.equal(await c.end(), 0);
});

test("bad lines and bad requests get error replies and the connection goes on", async (t) => {
  const c = connect();
  t.after(() => c.kill());
  const garbage = await c.ask("this is not json");
  assert.equal(garbage.error?.code, "bad_request");
  const array = await c.ask("[1,2]");
  assert.equal(array.error?.code, "bad_request");
  const unknownOp = await c.ask({ op: "dance", ref: "x" });
  assert.deepEqual([unknownOp.ref, unknownOp.error?.code], ["x", "unknown_op"]);
  const unknownSession = await c.ask({ op: "screen", session: "nobody" });
  assert.equal(unknownSession.error?.code, "unknown_session");
  const wrongType = await c.ask({ op: "resize", session: "nobody", cols: "wide", rows: 3 });
  assert.equal(wrongType.error?.code, "bad_request");
  const attach = await c.ask({ op: "attach", session: "x" });
  assert.equal(attach.error?.code, "bad_request");
  const opened = await c.ask({ op: "open", argv: ["cat"] });
  const badKey = await c.ask({ op: "send", session: (opened.session as { id: string }).id, text: "abc", keys: ["Hyper-Q"] });
  assert.equal(badKey.error?.code, "unknown_key");
  const timeout = await c.ask({ op: "wait", session: (opened.session as { id: string }).id, text: "abc", timeoutMs: 200 });
  assert.equal(timeout.error?.code, "timeout", "nothing was sent with the bad key");
  const numeric = await c.ask({ op: "close", session: Number((opened.session as { id: string }).id) });
  assert.equal(numeric.ok, true, "a numeric session id is accepted");
  assert.equal(await c.end(), 0);
});

test("replies keep the order of the lines when they are pipelined", async () => {
  const lines = [
    JSON.stringify({ op: "open", argv: ["cat"], name: "pipe", ref: 0 }),
    ...Array.from({ length: 20 }, (_, i) => JSON.stringify({ op: "send", session: "pipe", text: `line${i}`, keys: ["Enter"], ref: i + 1 })),
    JSON.stringify({ op: "wait", session: "pipe", text: "line19", timeoutMs: 20_000, ref: 21 }),
    JSON.stringify({ op: "close", session: "pipe", ref: 22 }),
  ];
  const result = await agent.run(["connect"], { input: lines.join("\n") + "\n" });
  assert.equal(result.code, 0, result.stderr);
  const replies = result.stdout.toString().trim().split("\n").map((l) => JSON.parse(l) as Reply);
  assert.deepEqual(replies.map((r) => r.ref), Array.from({ length: 23 }, (_, i) => i));
  assert.ok(replies.every((r) => r.ok), JSON.stringify(replies.filter((r) => !r.ok)));
});

test("no input at all (</dev/null, a closed stdin): connect ends at once, status 0, no output", { timeout: 60_000 }, async () => {
  // A state dir of its own: connect reaches (or starts) the agent as always, then ends.
  const empty = privateAgent("connect-empty");
  try {
    for (const stdin of ["ignore", "closed"] as const) {
      const [file, ...args] = corralCommand() as [string, ...string[]];
      const child = spawn(file, [...args, "connect"], { cwd: repoRoot, env: { ...process.env, ...empty.env }, stdio: [stdin === "ignore" ? "ignore" : "pipe", "pipe", "pipe"], timeout: 30_000 });
      if (stdin === "closed") child.stdin?.end();
      let out = "";
      child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
      child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
      // A connect that waits for lines that never come is killed at 30 s (code null): the test fails, it does not hang.
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.deepEqual({ code, out }, { code: 0, out: "" }, `stdin ${stdin}`);
    }
  } finally {
    await empty.stop();
  }
});
