// Sessions through the CLI against a real agent on a private socket: bash
// round trips, waits (late text, timeouts), unknown ids and keys, a crash
// inside, and the agent stopped with sessions open leaving nothing running.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { isAlive } from "../../support/processes.ts";
import { fifoGate } from "../../support/fifo-gate.ts";
import { waitFor } from "../../support/wait.ts";
import { PROTOCOL_VERSION } from "../../../lib/agent/protocol/messages.ts";

let agent: PrivateAgent;
const BASH = ["bash", "--norc", "--noprofile"];

interface Screen {
  lines: string[];
  size: { cols: number; rows: number };
  hash: string;
  changed: boolean;
  alive: boolean;
  exit: { code: number | null; signal: string | null } | null;
  cursor: { row: number; col: number; visible: boolean };
}

before(() => {
  agent = privateAgent("agent-sessions");
});

after(async () => {
  await agent.stop();
});

// Once a CLI run has started the agent, reads and the statuses of refusals
// run in-process (the agent is asked as by a child, without a runtime start
// each); opening, sending and waiting keep going through the real CLI.
async function inProcess(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await corralInProcess(args, { env: agent.env });
  return { code: r.code, stdout: r.stdout.toString("utf8"), stderr: r.stderr };
}

async function screen(id: string, ...flags: string[]): Promise<Screen> {
  const r = await inProcess(["pty", "screen", id, "--json", ...flags]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).screen as Screen;
}

test("bash: open by name, send, wait, screen, changed/hash, resize, close, list", async () => {
  const opened = JSON.parse(await agent.ok([
    "pty", "open", "--name", "sh1", "--cols", "70", "--rows", "20", "--env", "PS1=ready> ", "--json", "--", ...BASH,
  ])).session;
  assert.equal(opened.name, "sh1");
  assert.deepEqual(Object.keys(opened).sort(), ["ageMs", "alive", "argv", "exit", "id", "name", "pid", "position", "retired", "shell", "size", "startedAt"]);
  assert.equal(opened.size.cols, 70);
  assert.ok(opened.pid > 0);
  assert.equal((await agent.ok(["pty", "wait", "sh1", "--text", "ready> ", "--timeout", "20s"])).trim(), "text");
  await agent.ok(["pty", "send", "sh1", "echo $((6*7))", "--key", "Enter"]);
  assert.equal((await agent.ok(["pty", "wait", opened.id, "--regex", "^42$", "--timeout", "20s"])).trim(), "regex");
  const text = await agent.ok(["pty", "screen", "sh1"]);
  const lines = text.split("\n");
  assert.equal(lines.length, 21, "one line per row, then the final newline");
  assert.ok(lines.includes("42"));
  const first = await screen("sh1");
  assert.equal(first.size.cols, 70);
  const again = await screen("sh1");
  assert.equal(again.changed, false, "nothing changed since the last read");
  assert.equal(again.hash, first.hash);
  const since = await screen("sh1", "--since", "0000");
  assert.equal(since.changed, true, "--since asks against another hash");
  await agent.ok(["pty", "list"]);
  assert.equal((await screen("sh1")).changed, false, "listing never consumes a change");
  await agent.ok(["pty", "resize", "sh1", "100", "30"]);
  const resized = await screen("sh1");
  assert.deepEqual(resized.size, { cols: 100, rows: 30 });
  assert.equal(resized.changed, true);
  await agent.ok(["pty", "send", "sh1", "stty size", "--key", "Enter"]);
  await agent.ok(["pty", "wait", "sh1", "--text", "30 100", "--timeout", "20s"]);
  const closed = JSON.parse(await agent.ok(["pty", "close", "sh1", "--json"]));
  assert.equal(closed.session.exit.signal, "SIGHUP");
  assert.equal(isAlive(opened.pid), false);
  await agent.ok(["pty", "close", "sh1"]);
  const list = JSON.parse(await agent.ok(["pty", "list", "--json"])).sessions as Array<{ name: string; alive: boolean; exit: unknown }>;
  const entry = list.find((s) => s.name === "sh1");
  assert.equal(entry?.alive, false);
  assert.ok(entry?.exit);
});

/** Connections the agent has accepted on its socket right now (/proc/net/unix lists both ends under the path). */
function connectionsTo(socket: string): number {
  return readFileSync("/proc/net/unix", "utf8").split("\n")
    .filter((line) => line.endsWith(` ${socket}`) && line.trim().split(/\s+/)[5] === "03").length;
}

test("wait sees text that appears only after the wait began; a wait that cannot be met exits 124", async (t) => {
  const gate = fifoGate();
  t.after(() => gate.close());
  // LATE-TEXT is printed only once the test opens the gate.
  const id = (await agent.ok(["pty", "open", "--", "sh", "-c", `read _ < ${gate.path}; echo LATE-TEXT; exec cat`])).trim();
  const timedOut = await agent.run(["pty", "wait", id, "--text", "LATE-TEXT", "--timeout", "300ms"]);
  assert.equal(timedOut.code, 124);
  assert.match(timedOut.stderr, /^corral: no condition was met within 300ms/);
  assert.equal(timedOut.stderr.trim().split("\n").length, 1);
  // The gate opens once the waiting CLI is connected (its request follows at
  // once), so the text arrives while it waits, however slow its start.
  await waitFor(() => connectionsTo(agent.socket) === 0, { what: "earlier clients' connections to close", timeoutMs: 60_000, intervalMs: 10 });
  const waiting = agent.ok(["pty", "wait", id, "--text", "LATE-TEXT", "--timeout", "30s"]);
  await waitFor(() => connectionsTo(agent.socket) > 0, { what: "the waiting CLI to connect", timeoutMs: 60_000, intervalMs: 10 });
  await gate.release();
  assert.equal((await waiting).trim(), "text");
  const stable = await agent.ok(["pty", "wait", id, "--stable", "200ms", "--timeout", "30s"]);
  assert.equal(stable.trim(), "stable");
  await agent.ok(["pty", "close", id, "--force"]);
});

test("--new ignores what was on the screen when the wait began; --after a send's position sees its answer", async () => {
  const id = (await agent.ok(["pty", "open", "--env", "PS1=$ ", "--", ...BASH])).trim();
  await agent.ok(["pty", "wait", id, "--text", "$ ", "--timeout", "20s"]);
  const old = await agent.run(["pty", "wait", id, "--text", "$ ", "--new", "--timeout", "300ms"]);
  assert.equal(old.code, 124, "the prompt already showing does not satisfy --new");
  // A script's way: the send says where its input went in, the wait looks
  // after it, however late the second call starts.
  const sent = JSON.parse(await agent.ok(["pty", "send", id, "echo marker-$((1+1))", "--key", "Enter", "--json"])) as { at: number };
  assert.equal((await agent.ok(["pty", "wait", id, "--text", "marker-2", "--after", String(sent.at), "--timeout", "20s"])).trim(), "text");
  await agent.ok(["pty", "close", id]);
});

test("unknown ids exit 1, unknown keys exit 2 and send nothing, bad values exit 2", async () => {
  const id = (await agent.ok(["pty", "open", "--", "cat"])).trim();
  for (const args of [["pty", "screen", "nope"], ["pty", "send", "99999", "x"], ["pty", "close", "ghost"], ["pty", "wait", "ghost", "--exit"]]) {
    const result = await inProcess(args);
    assert.equal(result.code, 1, args.join(" "));
    assert.match(result.stderr, /^corral: no session "[^"]+"; see corral pty list/);
  }
  const before = await screen(id);
  const badKey = await inProcess(["pty", "send", id, "typed", "--key", "Enter", "--key", "NoSuchKey"]);
  assert.equal(badKey.code, 2);
  assert.match(badKey.stderr, /NoSuchKey/);
  const after = await screen(id);
  assert.equal(after.hash, before.hash, "nothing was sent");
  for (const args of [["pty", "open", "--cols", "abc", "--", "cat"], ["pty", "wait", id, "--timeout", "soon", "--exit"], ["pty", "wait", id]]) {
    const result = await corralInProcess(args, { env: agent.env });
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stderr.trim().split("\n").length, 1);
  }
  await agent.ok(["pty", "send", id, "--stdin"], { input: "from-stdin-\u00e9\r" });
  await agent.ok(["pty", "wait", id, "--regex", "^from-stdin-\u00e9$", "--timeout", "20s"]);
  const missing = await agent.run(["pty", "open", "--", "no-such-program-corral"]);
  assert.equal(missing.code, 127);
  await agent.ok(["pty", "close", id]);
});

test("a crash inside: exit facts in screen --json and list", async () => {
  const id = (await agent.ok(["pty", "open", "--name", "crasher", "--", "sh", "-c", "echo about-to-crash; kill -SEGV $$"])).trim();
  assert.equal((await agent.ok(["pty", "wait", id, "--exit", "--timeout", "20s"])).trim(), "exit");
  const shot = await screen("crasher");
  assert.equal(shot.alive, false);
  assert.equal(shot.exit?.signal, "SIGSEGV");
  assert.ok(shot.lines.includes("about-to-crash"), "output before the crash is kept");
  const list = JSON.parse((await inProcess(["pty", "list", "--json"])).stdout).sessions as Array<{ name: string; alive: boolean; exit: { signal: string } }>;
  assert.equal(list.find((s) => s.name === "crasher")?.exit.signal, "SIGSEGV");
  const text = (await inProcess(["pty", "list"])).stdout;
  assert.match(text, /crasher .*killed by SIGSEGV/);
  const send = await inProcess(["pty", "send", "crasher", "x"]);
  assert.equal(send.code, 1);
  assert.match(send.stderr, /has exited/);
  const late = await agent.run(["pty", "wait", "crasher", "--text", "never-printed", "--timeout", "60s"]);
  assert.equal(late.code, 1, "a wait on an exited program ends at once, not at its timeout");
  assert.match(late.stderr, /^corral: session \d+ exited \(killed by SIGSEGV\) before the condition was met/);
});

test("agent stop with sessions open leaves nothing running", async () => {
  const local = privateAgent("agent-stop");
  try {
    const pids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const opened = JSON.parse(await local.ok([
        "pty", "open", "--json", "--", "sh", "-c", "sleep 600 & echo child=$!; trap '' HUP; wait",
      ]));
      pids.push(opened.session.pid);
      await local.ok(["pty", "wait", opened.session.id, "--regex", "child=\\d+", "--timeout", "20s"]);
      const shot = JSON.parse(await local.ok(["pty", "screen", opened.session.id, "--json"])).screen as Screen;
      const child = Number(/child=(\d+)/.exec(shot.lines.join("\n"))?.[1]);
      assert.ok(child > 0);
      pids.push(child);
    }
    const agentPid = local.pid();
    assert.ok(agentPid !== undefined);
    assert.ok(pids.every(isAlive));
    const refused = await local.run(["agent", "stop"]);
    assert.equal(refused.code, 1, "refused while sessions run");
    assert.match(refused.stderr.toString(), /^corral: the agent \(pid \d+\) runs sessions 1, 2, 3; agent stop --force ends them, --keep leaves them running/);
    assert.ok(pids.every(isAlive), "a refused stop ends nothing");
    const stopped = await local.ok(["agent", "stop", "--force"]);
    assert.match(stopped, /ended sessions 1, 2, 3\)/);
    assert.equal(isAlive(agentPid), false, "agent stop returns once the agent is gone");
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { what: "every session process to be gone" });
  } finally {
    await local.stop();
  }
});

test("agent status and a stopped agent", async () => {
  const status = JSON.parse(await agent.ok(["agent", "status", "--json"]));
  assert.equal(status.running, true);
  assert.equal(status.protocolVersion, PROTOCOL_VERSION);
  assert.ok(status.memory.rss > 0);
  assert.equal(status.pid, agent.pid());
  const local = privateAgent("agent-none");
  const none = await local.run(["agent", "status"]);
  assert.equal(none.code, 1);
  assert.match(none.stdout.toString(), /no agent is running/);
  assert.equal((await local.run(["agent", "stop"])).code, 0);
  assert.equal((await local.ok(["pty", "list", "--json"])).trim(), '{"sessions":[]}', "list never starts the agent");
  assert.equal(local.pid(), undefined);
  await local.stop();
});
