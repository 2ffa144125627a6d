// `corral connect` is a door other programs read (scripts, ssh, kubectl
// exec): its stdout carries protocol and nothing else, ever. In JSON lines,
// every line is one reply object, whatever came in (bad JSON, unknown ops,
// a NUL line that is not the framed preamble, an agent started on demand by
// this very call). After the framed preamble (what --host and --via send),
// stdout is nothing but whole agent frames, the first starting at byte 0.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";
import { FrameDecoder, frameJson, jsonFrame, MAX_FRAME_BYTES, Tag } from "../../../lib/agent/protocol/frames.ts";
import { FRAMED_PREAMBLE, FRAMED_PREAMBLE_NO_START } from "../../../lib/agent/client/remote/framed-preamble.ts";
import { PROTOCOL_VERSION } from "../../../lib/agent/protocol/version.ts";

let agent: PrivateAgent;

before(() => {
  // No agent runs yet: the first connect starts it, and its start must not reach stdout.
  agent = privateAgent("connect-clean");
});

after(async () => {
  await agent.stop();
});

/** Runs connect with `input` on stdin (ended); its whole stdout, stderr and status. */
function connectWith(input: Uint8Array | string): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  const [file, ...args] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...args, "connect"], { cwd: repoRoot, env: { ...process.env, ...agent.env }, stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdin.end(input);
  return new Promise((resolve) => child.on("close", (code) => resolve({ stdout: Buffer.concat(out), stderr, code })));
}

test("framed: the agent started on demand, then nothing but whole frames on stdout", async () => {
  const utf8 = new TextEncoder();
  const input = Buffer.concat([
    utf8.encode(FRAMED_PREAMBLE),
    jsonFrame({ op: "hello", version: PROTOCOL_VERSION, id: 1 }),
    jsonFrame({ op: "list", id: 2 }),
    jsonFrame({ op: "no-such-op", id: 3 }),
    jsonFrame({ op: "open", argv: ["sh", "-c", "echo from-$HOME"], name: "clean", id: 4 }),
    jsonFrame({ op: "wait", session: "clean", text: "from-", timeoutMs: 20_000, id: 5 }),
    jsonFrame({ op: "close", session: "clean", force: true, id: 6 }),
  ].map((part) => Buffer.from(part)));
  const { stdout, stderr, code } = await connectWith(input);
  assert.equal(code, 0, stderr);
  const decoder = new FrameDecoder(MAX_FRAME_BYTES);
  const frames = decoder.push(new Uint8Array(stdout));
  const replies = frames.map((frame) => {
    assert.equal(frame.tag, Tag.json, "only JSON frames on a connection that never attached");
    return frameJson(frame.body) as { id: number; ok: boolean; error?: { code: string } };
  });
  assert.deepEqual(replies.map((r) => r.id), [1, 2, 3, 4, 5, 6], "every request answered, in order, with nothing between");
  assert.equal(replies[2]?.error?.code, "unknown_op");
  assert.equal(replies[3]?.ok, true, "open from afar: the relay filled in environment and directory");
  assert.equal(replies[4]?.ok, true, "the session got this side's HOME");
});

test("framed, told not to start: no agent is status 3 with nothing on stdout", async () => {
  await agent.run(["agent", "stop", "--force"]);
  const { stdout, stderr, code } = await connectWith(FRAMED_PREAMBLE_NO_START);
  assert.equal(code, 3, stderr);
  assert.equal(stdout.length, 0);
  assert.match(stderr, /^corral: no agent is running on /);
});

test("JSON lines: every stdout line is one reply object, whatever came in", async () => {
  const lines = [
    '{"op":"list","ref":1}',
    "not json at all",
    "[1,2]",
    '{"op":"nope","ref":2}',
    "\u0000not the preamble",
    '{"op":"screen","session":"missing","ref":3}',
  ];
  const { stdout, stderr, code } = await connectWith(`${lines[0]}\n${lines.slice(1).join("\n")}\n`);
  const out = stdout.toString("utf8");
  assert.ok(out.endsWith("\n"), `stdout ends with a whole line: ${JSON.stringify(out.slice(-80))}`);
  const replies = out.trimEnd().split("\n").map((line) => JSON.parse(line) as { ok: boolean; ref?: unknown });
  assert.equal(replies.length, lines.length, `one reply per line (stderr: ${stderr})`);
  for (const reply of replies) assert.equal(typeof reply.ok, "boolean");
  assert.deepEqual(replies.map((r) => r.ref).filter((ref) => ref !== undefined), [1, 2, 3]);
  assert.equal(code, 0);
});

test("a NUL first line that is not the preamble: one stderr line, exit 2, stdout empty", async () => {
  const { stdout, stderr, code } = await connectWith("\u0000hello\n");
  assert.equal(code, 2);
  assert.equal(stdout.length, 0);
  assert.equal(stderr.trim().split("\n").length, 1, stderr);
});
