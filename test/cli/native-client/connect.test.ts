// `corral connect` through the native client (native/client/connect-lines.c,
// cli/commands/connect/served-lines.ts): the agent answers its JSON lines on
// the client's own connection, and a script sees what the JavaScript CLI's
// relay writes, line for line; stdout carries reply lines only; what the
// client cannot serve (the framed preamble of a remote caller, a socket that
// is not provably ours, an agent of another protocol) goes to the JavaScript
// CLI with stdin untouched; an agent that goes away mid-conversation leaves
// `agent_gone` replies and status 1, and the next connect works.
// CORRAL_CLIENT=native makes the client fail instead of handing over, so an
// equal answer proves the agent served it.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { plantedAgent } from "../../support/planted-agent.ts";
import { scratchDir } from "../../support/scratch-dir.ts";
import { type Answer, BIN, runBin } from "../../support/bin-answer.ts";
import { FrameDecoder, frameJson, jsonFrame } from "../../../lib/agent/protocol/frames.ts";
import { PROTOCOL_VERSION, versionMismatchMessage } from "../../../lib/agent/protocol/version.ts";

/** `dist/corral connect` with `input` on stdin (ended). */
function connect(input: string | Uint8Array, env: Record<string, string>, options: { uid?: number; gid?: number; cwd?: string } = {}): Promise<Answer> {
  return runBin(["connect"], env, { ...options, input });
}

let agent: PrivateAgent;
before(async () => {
  agent = privateAgent("native-connect");
  await agent.ok(["pty", "open", "--name", "sh", "--", "sh", "-c", "echo shown; exec cat"]);
  await agent.ok(["pty", "wait", "sh", "--text", "shown"]);
});
after(async () => {
  await agent.stop();
});

test("connect answers through the native client as through the JavaScript CLI, line for line", async () => {
  const lines = [
    '{"op":"screen","session":"nosuch","ref":1}',
    "",
    "   ",
    "nope",
    "[1,2]",
    '{"op":"bogus","ref":"r"}',
    '{"op":"attach","session":"sh","ref":{"k":[1,"]"]}}',
    '{"op":"watch","session":"sh"}',
    '{"op":"wait","session":"sh","text":"shown","timeoutMs":5000,"ref":2}',
    '{"op":"wait","session":1,"text":"shown","timeoutMs":5000}',
    '{"op":"resize","session":"nosuch","cols":80,"rows":24,"ref":null}',
    '{"op":"hello","version":1}',
    '{"op":"send","session":"sh","keys":["NoSuchKey"],"ref":3}',
  ];
  // Line ends of every kind, and a last line without one.
  const input = `${lines.slice(0, 5).join("\n")}\r\n${lines.slice(5, 9).join("\r")}\n${lines.slice(9).join("\n")}`;
  const js = await connect(input, { ...agent.env, CORRAL_CLIENT: "js" });
  const native = await connect(input, { ...agent.env, CORRAL_CLIENT: "native" });
  assert.equal(js.status, 0, js.stderr);
  assert.deepEqual(native, js);
  assert.equal(native.stdout.split("\n").length, 11 + 1, native.stdout);
  for (const line of native.stdout.trimEnd().split("\n")) assert.equal(typeof (JSON.parse(line) as { ok: unknown }).ok, "boolean", line);
});

test("connect through the native client drives a session in lockstep, stdout nothing but reply lines", async () => {
  const child = spawn(BIN, ["connect"], { env: { ...process.env, ...agent.env, CORRAL_CLIENT: "native" }, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async (request: object) => {
    child.stdin.write(`${JSON.stringify(request)}\n`);
    const next = await replies.next();
    assert.notEqual(next.done, true, `connect ended early: ${stderr}`);
    return JSON.parse(next.value as string) as Record<string, unknown>;
  };
  for (let i = 0; i < 20; i++) {
    const sent = await ask({ op: "send", session: "sh", text: `lock${i}`, keys: ["Enter"], ref: i });
    assert.equal(sent.ref, i);
    assert.equal(sent.ok, true, JSON.stringify(sent));
    const waited = await ask({ op: "wait", session: "sh", text: `lock${i}`, after: sent.at, timeoutMs: 20_000 });
    assert.equal(waited.fired, "text", JSON.stringify(waited));
    const screen = await ask({ op: "screen", session: "sh" });
    assert.match(JSON.stringify(screen), new RegExp(`lock${i}`));
  }
  child.stdin.end();
  const status = await new Promise((resolve) => child.on("close", resolve));
  assert.equal(status, 0, stderr);
  assert.equal(stderr, "");
  assert.equal((await replies.next()).done, true);
});

test("connect --socket PATH is served too (a relative one is not: CORRAL_CLIENT=native refuses it)", (t) => {
  const socket = path.join(agent.env.CORRAL_STATE_DIR as string, "agent.sock");
  const env = { ...process.env, CORRAL_JS_RUNTIME: process.execPath, CORRAL_STATE_DIR: "", CORRAL_SOCKET: "", CORRAL_CLIENT: "native" };
  for (const args of [["connect", "--socket", socket], ["connect", `--socket=${socket}`]]) {
    const served = spawnSync(BIN, args, { env, input: '{"op":"list","ref":"s"}\n', encoding: "utf8" });
    assert.equal(served.status, 0, served.stderr);
    assert.deepEqual((JSON.parse(served.stdout) as { ref: string; ok: boolean }).ok, true);
  }
  const dir = scratchDir(t, "corral-connect-relative-");
  const relative = spawnSync(BIN, ["connect", "--socket", "agent.sock"], { env, cwd: dir, input: '{"op":"list"}\n', encoding: "utf8" });
  assert.equal(relative.status, 125);
  assert.equal(relative.stdout, "");
});

test("a stdin that starts with a NUL byte (a remote caller's preamble) goes to the JavaScript CLI untouched", async () => {
  const answer = await connect("\0not the preamble\n", agent.env);
  assert.equal(answer.status, 2);
  assert.equal(answer.stdout, "");
  assert.match(answer.stderr, /^corral: connect: stdin began with a NUL byte but not with the framed preamble/);
  const refused = await connect("\0not the preamble\n", { ...agent.env, CORRAL_CLIENT: "native" });
  assert.equal(refused.status, 125);
  assert.match(refused.stderr, /CORRAL_CLIENT=native: connect is served only locally/);
});

test("an agent of another protocol version: the JavaScript CLI's message, as it always says it", async (t) => {
  const stateDir = path.join(scratchDir(t, "corral-connect-version-"), "state");
  mkdirSync(stateDir, { mode: 0o700 });
  const other = PROTOCOL_VERSION - 1;
  const fake = net.createServer((conn) => {
    const frames = new FrameDecoder(1 << 20);
    conn.on("data", (chunk: Buffer) => {
      for (const frame of frames.push(new Uint8Array(chunk))) {
        const request = frameJson(frame.body) as { id: number; op: string; version?: number };
        const reply = request.op === "hello"
          ? { id: request.id, ok: false, error: { code: "version_mismatch", message: versionMismatchMessage(other, request.version ?? 0) } }
          : { id: request.id, ok: false, error: { code: "bad_request", message: `send a hello with protocol ${other} first` } };
        conn.write(jsonFrame(reply));
      }
    });
    conn.on("error", () => {});
  });
  await new Promise<void>((resolve) => fake.listen(path.join(stateDir, "agent.sock"), resolve));
  t.after(() => fake.close());
  const env = { CORRAL_STATE_DIR: stateDir, CORRAL_SOCKET: "", CORRAL_AGENT_IDLE: "5m" };
  const input = '{"op":"list"}\n';
  const js = await connect(input, { ...env, CORRAL_CLIENT: "js" });
  const door = await connect(input, env);
  assert.deepEqual(door, js);
  assert.match(door.stderr, new RegExp(`speaks protocol ${other} and this corral speaks ${PROTOCOL_VERSION}`));
  const native = await connect(input, { ...env, CORRAL_CLIENT: "native" });
  assert.equal(native.status, 125);
  assert.equal(native.stdout, "");
});

test("the agent going away mid-conversation: agent_gone for what it did not answer, status 1; the next connect works", async () => {
  const local = privateAgent("native-connect-restart");
  try {
    await local.ok(["pty", "open", "--name", "c", "--", "cat"]);
    const child = spawn(BIN, ["connect"], { env: { ...process.env, ...local.env, CORRAL_CLIENT: "native" }, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    child.stdin.write('{"op":"list","ref":"before"}\n');
    const first = JSON.parse((await replies.next()).value as string) as { ref: string; ok: boolean };
    assert.deepEqual([first.ref, first.ok], ["before", true]);
    // Sessions keep running; the agent that served this connect is gone.
    await local.ok(["agent", "restart"]);
    child.stdin.write('{"op":"list","ref":{"after":[1]}}\n');
    const gone = JSON.parse((await replies.next()).value as string) as { ref: unknown; ok: boolean; error: { code: string } };
    assert.deepEqual(gone.ref, { after: [1] });
    assert.equal(gone.ok, false);
    assert.equal(gone.error.code, "agent_gone");
    child.stdin.end();
    const status = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(status, 1, stderr);
    const again = await connect('{"op":"screen","session":"c","ref":"again"}\n', { ...local.env, CORRAL_CLIENT: "native" });
    assert.equal(again.status, 0, again.stderr);
    const reply = JSON.parse(again.stdout) as { ref: string; ok: boolean; screen: { alive: boolean } };
    assert.deepEqual([reply.ref, reply.ok, reply.screen.alive], ["again", true, true]);
  } finally {
    await local.stop();
  }
});

test("a listener that another user planted at a socket of ours is sent nothing by connect", async (t) => {
  const planted = await plantedAgent(t, "conn", BIN);
  if (typeof planted === "string") return t.skip(planted);
  const { user, stateDir } = planted;
  const env = { CORRAL_STATE_DIR: stateDir, CORRAL_SOCKET: "", HOME: user.home };
  const native = await connect('{"op":"list"}\n', { ...env, CORRAL_CLIENT: "native" }, { uid: user.uid, gid: user.gid, cwd: user.home });
  assert.equal(native.status, 125);
  assert.equal(native.stdout, "");
  const answer = await connect('{"op":"list"}\n', env, { uid: user.uid, gid: user.gid, cwd: user.home });
  assert.notEqual(answer.status, 0, "a planted agent must be refused");
  assert.equal(answer.stdout, "");
  assert.match(answer.stderr, /refusing the agent socket/);
  const { bytes, connections } = planted.received();
  assert.equal(bytes, 0, `the planted listener received ${bytes} bytes over ${connections} connections`);
});
