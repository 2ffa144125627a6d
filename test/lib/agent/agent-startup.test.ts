// The agent's life: 8 clients racing auto-start get one agent; a leftover
// socket is cleared; a loosened or foreign state dir is refused; the agent
// exits by itself when idle, on SIGTERM closes its sessions and on SIGKILL
// takes them along (guardian lifeline); a client of
// another protocol version is told both numbers and how to restart; a
// command that starts no agent waits for one being started.
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { privateAgent } from "../../support/agent-harness.ts";
import { corralCommand } from "../../support/corral-cli.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { encodeFrame, FrameDecoder } from "../../../lib/core/frame.ts";
import { PROTOCOL_VERSION } from "../../../lib/agent/protocol/messages.ts";
import { locateGuardian } from "../../../lib/supervise/guardian/binary.ts";

/** Pids of live `agent run` processes serving this socket. */
function agentsOn(socket: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmdline.includes("run") && cmdline.includes("agent") && cmdline.includes(socket) && isAlive(pid)) found.push(pid);
    } catch {
      // gone
    }
  }
  return found;
}

test("8 clients racing auto-start start exactly one agent", async () => {
  const agent = privateAgent("agent-race");
  try {
    const results = await Promise.all(Array.from({ length: 8 }, () => agent.run(["agent", "start", "--json"])));
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const pids = new Set(results.map((r) => JSON.parse(r.stdout.toString()).pid as number));
    assert.equal(pids.size, 1, `every client talks to the same agent, got ${[...pids].join(", ")}`);
    assert.deepEqual(agentsOn(agent.socket), [...pids]);
    assert.equal(statSync(agent.stateDir).mode & 0o777, 0o700);
    assert.equal(statSync(agent.socket).mode & 0o777, 0o600);
    assert.match(readFileSync(path.join(agent.stateDir, "agent.log"), "utf8"), /listening on/);
  } finally {
    await agent.stop();
  }
});

test("a dead socket left behind is cleared and a fresh agent starts", async () => {
  const agent = privateAgent("agent-stale");
  try {
    mkdirSync(agent.stateDir, { mode: 0o700 });
    // A socket file nobody listens on, as a crashed agent leaves it.
    const bound = spawnSync("python3", ["-c", "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", agent.socket]);
    assert.equal(bound.status, 0, String(bound.stderr));
    assert.ok(statSync(agent.socket).isSocket());
    const status = JSON.parse(await agent.ok(["agent", "start", "--json"]));
    assert.ok(status.pid > 0);
  } finally {
    await agent.stop();
  }
});

test("a state dir open to group or others is refused, nonzero, one line", async () => {
  const agent = privateAgent("agent-loose");
  mkdirSync(agent.stateDir, { mode: 0o755 });
  chmodSync(agent.stateDir, 0o755);
  const result = await agent.run(["pty", "open", "--", "true"]);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /^corral: state dir .* has mode 0755, open to group or others; it must be 0700/);
  assert.equal(result.stderr.trim().split("\n").length, 1);
  assert.equal(agent.pid(), undefined, "no agent was started");
  await agent.stop();
});

test("a state dir owned by another user is refused", { skip: process.getuid?.() !== 0 && "needs root to chown" }, async () => {
  const agent = privateAgent("agent-foreign");
  mkdirSync(agent.stateDir, { mode: 0o700 });
  chownSync(agent.stateDir, 65534, 65534);
  const result = await agent.run(["agent", "start"]);
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /^corral: state dir .* is owned by uid 65534, not by you/);
  await agent.stop();
});

test("the agent exits by itself when idle, and SIGTERM closes its sessions", async () => {
  const idle = privateAgent("agent-idle", { CORRAL_AGENT_IDLE: "1s" });
  try {
    const id = (await idle.ok(["pty", "open", "--", "cat"])).trim();
    const pid = idle.pid() as number;
    await idle.ok(["pty", "close", id]);
    await waitFor(() => !isAlive(pid), { what: "the idle agent to exit", timeoutMs: 30_000 });
  } finally {
    await idle.stop();
  }
  const term = privateAgent("agent-term");
  try {
    const opened = JSON.parse(await term.ok(["pty", "open", "--json", "--", "sh", "-c", "trap '' HUP; exec sleep 600"])).session;
    const pid = term.pid() as number;
    process.kill(pid, "SIGTERM");
    await waitFor(() => !isAlive(pid) && !isAlive(opened.pid), { what: "agent and session gone after SIGTERM" });
  } finally {
    await term.stop();
  }
});

test("a client of another protocol version is told both numbers and how to restart", async () => {
  const agent = privateAgent("agent-version");
  mkdirSync(agent.stateDir, { mode: 0o700 });
  // A stand-in agent that speaks protocol 99.
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    const decoder = new FrameDecoder(1 << 20);
    socket.on("data", (chunk: Buffer) => {
      for (const frame of decoder.push(new Uint8Array(chunk))) {
        const request = JSON.parse(Buffer.from(frame.body).toString());
        const reply = request.op === "hello" ? { id: request.id, ok: true, version: 99, pid: process.pid } : { id: request.id, ok: false, error: { code: "version_mismatch", message: "x" } };
        socket.write(encodeFrame(1, Buffer.from(JSON.stringify(reply))));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(agent.socket, resolve));
  try {
    const result = await agent.run(["pty", "list"]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^corral: the running agent speaks protocol 99 and this corral speaks ${PROTOCOL_VERSION}; restart it with: corral agent restart`));
  } finally {
    server.close();
    await agent.stop();
  }
});

test("an agent killed with SIGKILL leaves its session running; the next agent re-adopts it, reap --all ends it (issue 11)", {
  skip: !locateGuardian().built && "the guardian is not built; node-pty sessions only get the terminal's hangup",
}, async () => {
  const agent = privateAgent("agent-kill");
  try {
    const opened = JSON.parse(await agent.ok([
      "pty", "open", "--json", "--", "sh", "-c", "trap '' HUP; sleep 600 & echo child=$!; wait",
    ]));
    await agent.ok(["pty", "wait", opened.session.id, "--regex", "child=\\d+", "--timeout", "20s"]);
    const rows = JSON.parse(await agent.ok(["pty", "screen", opened.session.id, "--json"])).screen.lines as string[];
    const child = Number(/child=(\d+)/.exec(rows.join("\n"))?.[1]);
    const pid = agent.pid() as number;
    process.kill(pid, "SIGKILL");
    await waitFor(() => !isAlive(pid), { what: "the agent to die" });
    assert.ok(isAlive(opened.session.pid) && isAlive(child), "the guardian keeps the session without its agent");
    const listed = JSON.parse(await agent.ok(["pty", "list", "--json"])).sessions as { id: string; pid: number; alive: boolean }[];
    assert.deepEqual(listed.map((s) => [s.id, s.pid, s.alive]), [[opened.session.id, opened.session.pid, true]], "re-adopted: same id and pid");
    assert.notEqual(agent.pid(), pid, "by a new agent");
    await agent.ok(["reap", "--all", "--grace", "1s"]);
    await waitFor(() => !isAlive(opened.session.pid) && !isAlive(child), { what: "the session's processes to go with reap --all" });
  } finally {
    await agent.stop();
  }
});

test("a command that starts no agent waits for one being started (its start lock held) instead of saying there is none", { timeout: 90_000 }, async () => {
  // Seen in a chaos run: `jobs wait` while the next agent re-adopted its jobs (not yet bound) said
  // "no agent is running, so there are no jobs". Here a client's start lock is held by a live
  // process while no agent answers; `agent status` must wait, then see the agent that comes up.
  const agent = privateAgent("agent-starting");
  const holder = spawn("sleep", ["600"], { stdio: "ignore" });
  try {
    mkdirSync(agent.stateDir, { mode: 0o700 });
    writeFileSync(path.join(agent.stateDir, "agent.lock"), `${holder.pid}\n`, { mode: 0o600 });
    const status = agent.run(["agent", "status", "--json"]);
    // The agent that was being started comes up (as the lock's holder would have started it).
    const [file, ...args] = corralCommand() as [string, ...string[]];
    spawn(file, [...args, "agent", "run", "--socket", agent.socket], { env: { ...process.env, ...agent.env }, stdio: "ignore", detached: true }).unref();
    const answered = await status;
    assert.equal(answered.code, 0, answered.stderr.toString());
    assert.equal(JSON.parse(answered.stdout.toString()).running, true, "status saw the agent being started");
  } finally {
    holder.kill("SIGKILL");
    await agent.stop();
  }
});
