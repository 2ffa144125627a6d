// `corral mcp`'s terminal and job tools through the SDK's own client over
// stdio, each on its success and error paths: sessions and jobs live in the
// agent (the CLI sees what the model opened), waits answer within the cap
// with a cursor, screens come whole, as the last lines, as a range, or as
// what changed since a snapshot.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { errorText, mcpSession, type McpSession } from "../../support/mcp-client.ts";
import { isAlive } from "../../support/processes.ts";

let agent: PrivateAgent;
let mcp: McpSession;

type Obj = Record<string, unknown>;
interface Screen { snapshot: string; lines: string[]; first: number; historyLines: number; changed: { line: number; text: string }[] | null; alive: boolean; awaitingInput: boolean | null }
interface Waited { done: boolean; cursor?: string; fired: string | null; position: number; awaitingInput: boolean | null; screen: string[] }
interface Job { id: string; state: string; status: number | null; bytes: number; spill: string | null }

before(async () => {
  agent = privateAgent("mcp-tools");
  mcp = await mcpSession(agent);
});

after(async () => {
  await mcp?.close();
  await agent.stop();
});

const bash = ["bash", "--norc", "--noprofile"];
const prompt = { PS1: "$ " };

test("tools/list: every tool with an input and an output schema", async () => {
  const { tools } = await mcp.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), [
    "run", "terminal_open", "terminal_send", "terminal_exec", "terminal_screen", "terminal_wait", "terminal_close", "terminal_list",
    "job_start", "job_read", "job_wait", "job_stop",
  ]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(tool.outputSchema?.type, "object", tool.name);
    assert.ok((tool.description ?? "").length > 40, tool.name);
  }
  const unknown = await mcp.call("no_such_tool", {});
  assert.match(errorText(unknown), /^unknown_tool: no tool named "no_such_tool"; the tools are run, /);
});

test("a session: open, send and wait, screen, list (shared with the CLI), close", async () => {
  const opened = await mcp.ok<{ session: { id: string; name: string; alive: boolean } }>("terminal_open", { argv: bash, name: "sh1", env: prompt });
  assert.equal(opened.session.name, "sh1");
  // At its prompt first: keys typed before bash reads its terminal are echoed once by the terminal
  // and again by readline, a line the screen checks below would not expect.
  assert.equal((await mcp.ok<Waited>("terminal_wait", { session: "sh1", ready: true })).fired, "ready");
  const sent = await mcp.ok<{ at: number; waited: Waited }>("terminal_send", { session: "sh1", text: "echo $((6*7))", keys: ["Enter"], wait: { regex: "^42$" } });
  assert.equal(sent.waited.done, true);
  assert.equal(sent.waited.fired, "regex");
  assert.ok(sent.waited.screen.includes("42"));
  const ready = await mcp.ok<Waited>("terminal_wait", { session: "sh1", ready: true });
  assert.equal(ready.fired, "ready");
  assert.equal(ready.awaitingInput, true);
  const cli = JSON.parse(await agent.ok(["pty", "list", "--json"])) as { sessions: { name: string }[] };
  assert.ok(cli.sessions.some((s) => s.name === "sh1"), "the CLI sees the session the model opened");
  const listed = await mcp.ok<{ sessions: { name: string }[] }>("terminal_list");
  assert.ok(listed.sessions.some((s) => s.name === "sh1"));

  const before = await mcp.ok<Screen>("terminal_screen", { session: "sh1" });
  assert.equal(before.lines[1], "42");
  // The same request through another door gets the same answer: the CLI's screen, blank rows below left out.
  const cliScreen = (JSON.parse(await agent.ok(["pty", "screen", "sh1", "--json"])) as { screen: { lines: string[] } }).screen;
  assert.deepEqual(before.lines, cliScreen.lines.slice(0, before.lines.length));
  assert.ok(cliScreen.lines.slice(before.lines.length).every((l) => l === ""));
  const counted = await mcp.ok<{ waited: Waited }>("terminal_send", { session: "sh1", text: "seq 1 60", keys: ["Enter"], wait: { regex: "^60$" } });
  assert.equal(counted.waited.done, true);
  assert.equal((await mcp.ok<Waited>("terminal_wait", { session: "sh1", ready: true })).fired, "ready");
  const since = await mcp.ok<Screen>("terminal_screen", { session: "sh1", since: before.snapshot });
  assert.ok(since.changed !== null && since.changed.length > 0 && since.changed.length <= 24);
  const same = await mcp.ok<Screen>("terminal_screen", { session: "sh1", since: since.snapshot });
  assert.deepEqual(same.changed, [], "nothing changed: nothing returned");
  const last = await mcp.ok<Screen>("terminal_screen", { session: "sh1", lines: 3 });
  assert.deepEqual(last.lines, ["59", "60", "$"]);
  const range = await mcp.ok<Screen>("terminal_screen", { session: "sh1", from: 0, to: 2 });
  assert.deepEqual(range.lines.map((l) => l.trim()), ["$ echo $((6*7))", "42"]);

  const closed = await mcp.ok<{ session: { alive: boolean } }>("terminal_close", { session: "sh1", force: true });
  assert.equal(closed.session.alive, false);
});

test("session errors: unknown session, unknown key, bad arguments, unknown snapshot, a wait that times out", async () => {
  for (const [tool, args] of [["terminal_send", { session: "nope", text: "x" }], ["terminal_screen", { session: "nope" }], ["terminal_wait", { session: "nope", text: "x" }], ["terminal_close", { session: "nope" }]] as const) {
    const result = await mcp.call(tool, args);
    assert.equal(result.isError, true, tool);
    assert.match(errorText(result), /^unknown_session: /, tool);
  }
  await mcp.ok("terminal_open", { argv: bash, name: "sh2", env: prompt });
  assert.match(errorText(await mcp.call("terminal_send", { session: "sh2", keys: ["NoSuchKey"] })), /^unknown_key: /);
  assert.match(errorText(await mcp.call("terminal_send", { text: "x" })), /^bad_request: terminal_send needs "session"/);
  assert.match(errorText(await mcp.call("terminal_screen", { session: "sh2", since: "snap-999999" })), /^unknown_snapshot: /);
  assert.match(errorText(await mcp.call("terminal_wait", { cursor: "terminal_wait:999" })), /^unknown_cursor: /);
  const timedOut = await mcp.ok<Waited>("terminal_wait", { session: "sh2", text: "never printed", timeoutMs: 300 });
  assert.deepEqual([timedOut.done, timedOut.fired], [true, "timeout"]);
  assert.match(errorText(await mcp.call("terminal_open", { argv: ["corral-no-such-program"] })), /^command_not_found: /);
  await mcp.ok("terminal_close", { session: "sh2", force: true });
});

test("cancelling a session wait ends only the wait: the session keeps running and answers", async () => {
  await mcp.ok("terminal_open", { argv: bash, name: "sh4", env: prompt });
  const controller = new AbortController();
  const pending = mcp.call("terminal_wait", { session: "sh4", text: "never printed" }, { signal: controller.signal });
  pending.catch(() => {});
  controller.abort();
  await assert.rejects(pending);
  const sent = await mcp.ok<{ waited: Waited }>("terminal_send", { session: "sh4", text: "echo still-$((1+1))", keys: ["Enter"], wait: { text: "still-2" } });
  assert.equal(sent.waited.fired, "text");
  assert.match(errorText(await mcp.call("terminal_list", { all: true })), /^bad_request: terminal_list has no argument "all"; its arguments are none/);
  await mcp.ok("terminal_close", { session: "sh4", force: true });
});

test("a session wait longer than the cap answers done:false and resumes from the same position", async (t) => {
  const capped = await mcpSession(agent, ["--wait-cap", "300ms"]);
  t.after(() => capped.close());
  await capped.ok("terminal_open", { argv: bash, name: "sh3", env: prompt });
  const first = await capped.ok<Waited>("terminal_wait", { session: "sh3", text: "gate-opened", timeoutMs: 120_000 });
  assert.equal(first.done, false);
  await capped.ok("terminal_send", { session: "sh3", text: 'echo gate-""opened', keys: ["Enter"] });
  let answer = first;
  while (!answer.done) answer = await capped.ok<Waited>("terminal_wait", { cursor: answer.cursor });
  assert.equal(answer.fired, "text");
  await capped.ok("terminal_close", { session: "sh3", force: true });
});

test("a job: start, read by offset, wait (through a cursor), stop; the CLI sees it", async (t) => {
  const started = await mcp.ok<{ job: Job }>("job_start", { command: "seq 1 3; echo done", name: "j1" });
  const id = started.job.id;
  const ended = await mcp.ok<{ done: boolean; job: Job }>("job_wait", { job: id });
  assert.deepEqual([ended.done, ended.job.state, ended.job.status], [true, "done", 0]);
  const cli = JSON.parse(await agent.ok(["jobs", "--json"])) as { jobs: { id: string }[] };
  assert.ok(cli.jobs.some((j) => j.id === id), "the CLI sees the job");
  const part = await mcp.ok<{ text: string; nextOffset: number; eof: boolean }>("job_read", { job: id, offset: 0, maxBytes: 5 });
  assert.deepEqual([part.text, part.nextOffset, part.eof], ["1\n2\n", 4, false]);
  const rest = await mcp.ok<{ text: string; nextOffset: number; eof: boolean }>("job_read", { job: id, offset: part.nextOffset });
  assert.deepEqual([rest.text, rest.eof], ["3\ndone\n", true]);
  assert.match(errorText(await mcp.call("job_read", { job: id, offset: 10_000 })), /^bad_request: .*past the end/);
  const again = await mcp.ok<{ stopped: boolean }>("job_stop", { job: id });
  assert.equal(again.stopped, false, "an ended job is left as it is");

  const capped = await mcpSession(agent, ["--wait-cap", "300ms"]);
  t.after(() => capped.close());
  const gate = path.join(agent.dir, "job-gate");
  const slow = await capped.ok<{ job: Job }>("job_start", { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo through` });
  const waiting = await capped.ok<{ done: boolean; cursor: string }>("job_wait", { job: slow.job.id });
  assert.equal(waiting.done, false);
  writeFileSync(gate, "");
  let answer: { done: boolean; cursor?: string; job?: Job } = waiting;
  while (!answer.done) answer = await capped.ok("job_wait", { cursor: answer.cursor });
  assert.equal(answer.job?.status, 0);

  const sleeper = await mcp.ok<{ job: Job & { pid: number } }>("job_start", { argv: ["sleep", "999"] });
  const stopped = await mcp.ok<{ stopped: boolean; receipt: { status: string }; job: Job }>("job_stop", { job: sleeper.job.id, graceMs: 1000 });
  assert.deepEqual([stopped.stopped, stopped.receipt.status, stopped.job.state], [true, "confirmed", "done"]);
  assert.equal(isAlive(sleeper.job.pid), false);
  assert.ok(sleeper.job.spill !== null && existsSync(sleeper.job.spill));
  for (const tool of ["job_read", "job_wait", "job_stop"]) {
    assert.match(errorText(await mcp.call(tool, { job: "%999" })), /^unknown_job: /, tool);
  }
  assert.match(errorText(await mcp.call("job_start", { argv: [] })), /^bad_request: job_start: "argv" must hold at least 1 item/);
  await agent.ok(["reap"]);
});

test("answers carry the text rendering next to the structured object", async () => {
  const result = await mcp.call("terminal_list", {});
  const first = result.content[0] as Obj;
  assert.equal(first.type, "text");
  assert.equal(typeof first.text, "string");
  assert.ok(typeof result.structuredContent === "object");
});
