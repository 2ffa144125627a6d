// `corral mcp`'s terminal_exec through the SDK's own client over stdio: a
// sequence in one hooked shell (cd and export carry over, a failure is
// status 1, a command killed by a signal is 128+N with its name), a long
// output bounded with exact elision counts and a byte-exact spill, a wait
// through cursors with the busy shell refused meanwhile, a cancelled wait
// leaving the command running (then stopped), the timeout (the command
// keeps running, or is interrupted), a session without shell
// integration refused, --read-only refusing it and --allow matching the
// command line as run's. Every session is closed: nothing is left running.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { errorText, mcpSession, type McpSession } from "../../support/mcp-client.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

let agent: PrivateAgent;
let mcp: McpSession;

interface Exec {
  done: boolean;
  cursor?: string;
  status: number | null;
  signal: string | null;
  cwd: string | null;
  durationMs: number | null;
  output: string;
  bytes: number;
  lines: number;
  elided: { bytes: number; lines: number; keptIn: string | null } | null;
  spill: string | null;
  from: number | null;
  to: number | null;
}

before(async () => {
  agent = privateAgent("mcp-exec");
  mcp = await mcpSession(agent, ["--budget", "2000"]);
});

after(async () => {
  await mcp?.close();
  await agent.stop();
});

const exec = (session: string, command: string, extra: Record<string, unknown> = {}) => mcp.ok<Exec>("terminal_exec", { session, command, timeoutMs: 120_000, ...extra });

test("a sequence in one shell: cd and export carry over, a failure is status 1, a signal is 128+N", async () => {
  const opened = await mcp.ok<{ session: { shell: string | null } }>("terminal_open", { argv: ["bash"], name: "seq1" });
  assert.equal(opened.session.shell, "bash");
  const dir = realpathSync(agent.dir);
  const cd = await exec("seq1", `cd '${dir}'`);
  assert.deepEqual([cd.done, cd.status, cd.signal, cd.cwd, cd.output], [true, 0, null, dir, ""]);
  assert.equal((await exec("seq1", "export CORRAL_MCP_GREETING=hello-there")).status, 0);
  const read = await exec("seq1", 'echo "$CORRAL_MCP_GREETING"; pwd');
  assert.deepEqual([read.status, read.output, read.bytes, read.lines, read.elided], [0, `hello-there\n${dir}\n`, `hello-there\n${dir}\n`.length, 2, null]);
  assert.ok(read.from !== null && read.to !== null && read.to > read.from, "positions of its output in the session's stream");
  assert.ok(typeof read.durationMs === "number");
  const failed = await exec("seq1", "echo to-stderr >&2; false");
  assert.deepEqual([failed.status, failed.signal, failed.output], [1, null, "to-stderr\n"]);
  const killed = await exec("seq1", "sh -c 'kill -TERM $$'");
  assert.deepEqual([killed.status, killed.signal], [143, "SIGTERM"]);
  const shaped = await exec("seq1", "printf '\\033[31mred\\033[0m\\n'; printf '10%%\\r50%%\\r100%%\\n'");
  assert.equal(shaped.output, "red\n100%\n", "ANSI removed, the redraws collapsed to the last state");
  const text = await mcp.call("terminal_exec", { session: "seq1", command: "(exit 3)" });
  const first = text.content[0] as { type: string; text: string };
  assert.match(first.text, /^\(exit 3\): exit status 3; 0 lines, 0 bytes; cwd /);
  await mcp.ok("terminal_close", { session: "seq1", force: true });
});

test("a long output: head and tail within the budget, the cut counted exactly, every byte in the spill", async () => {
  await mcp.ok("terminal_open", { argv: ["bash"], name: "long1" });
  const ran = await exec("long1", "seq 1 100000");
  const whole = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join("");
  assert.equal(ran.status, 0);
  assert.deepEqual([ran.bytes, ran.lines], [whole.length, 100000]);
  assert.ok(ran.output.length <= 2000 + 200, `output within the budget: ${ran.output.length}`);
  const [head, marker, ...rest] = ran.output.split(/(\[\.\.\. .* elided; .*\.\.\.\]\n)/);
  assert.ok(marker !== undefined && head !== undefined, "the cut is stated in the text");
  const headLines = head.split("\n").slice(0, -1).map(Number);
  const tailLines = rest.join("").split("\n").slice(0, -1).map(Number);
  assert.deepEqual(headLines, headLines.map((_, i) => i + 1), "the head is lines 1..k");
  const lastHead = headLines.at(-1) as number;
  const firstTail = tailLines[0] as number;
  assert.equal(tailLines.at(-1), 100000, "the tail ends with the last line");
  assert.deepEqual(tailLines, tailLines.map((_, i) => firstTail + i));
  const elidedText = whole.slice(head.length, whole.length - rest.join("").length);
  assert.deepEqual(ran.elided, { bytes: elidedText.length, lines: firstTail - lastHead - 1, keptIn: ran.spill });
  assert.match(marker, new RegExp(`${ran.elided?.bytes} bytes, ${ran.elided?.lines} lines elided; all of it is in `));
  assert.ok(ran.spill !== null);
  assert.equal(readFileSync(ran.spill, "latin1"), whole, "the spill is byte-exact (line ends as LF)");
  const unspilled = await exec("long1", "seq 1 3", { spill: false });
  assert.deepEqual([unspilled.output, unspilled.spill], ["1\n2\n3\n", null]);
  await mcp.ok("terminal_close", { session: "long1", force: true });
});

test("a wait through cursors, with progress; the busy shell refused meanwhile", async (t) => {
  const capped = await mcpSession(agent, ["--wait-cap", "300ms"]);
  t.after(() => capped.close());
  await capped.ok("terminal_open", { argv: ["bash"], name: "gate1" });
  const gate = path.join(agent.dir, "exec-gate");
  const progress: string[] = [];
  const first = await capped.call("terminal_exec", { session: "gate1", command: `echo waiting; while [ ! -e '${gate}' ]; do sleep 0.05; done; echo finished`, timeoutMs: 120_000 }, {
    onprogress: (p) => progress.push(p.message ?? ""),
  });
  let answer = first.structuredContent as unknown as Exec;
  const cursors: string[] = [];
  while (cursors.length < 2) {
    assert.equal(answer.done, false);
    assert.equal(answer.status, null);
    assert.ok(answer.cursor !== undefined);
    cursors.push(answer.cursor);
    answer = await capped.ok<Exec>("terminal_exec", { cursor: answer.cursor });
  }
  assert.equal(answer.done, false, "still running: the gate is shut");
  const busy = await capped.call("terminal_exec", { session: "gate1", command: "echo second" });
  assert.equal(busy.isError, true);
  assert.match(errorText(busy), /^shell_busy: .*resume the earlier terminal_exec with its cursor/);
  writeFileSync(gate, "");
  while (!answer.done) answer = await capped.ok<Exec>("terminal_exec", { cursor: answer.cursor });
  assert.deepEqual([answer.status, answer.output], [0, "waiting\nfinished\n"]);
  assert.ok(progress.length > 0, "a progress notification came");
  assert.match(errorText(await capped.call("terminal_exec", { cursor: cursors[0] })), /^unknown_cursor: /);
  await capped.ok("terminal_close", { session: "gate1", force: true });
});

test("a client that leaves while a command runs: the server exits by itself, the command goes on in its session", async () => {
  const leaving = await mcpSession(agent, ["--wait-cap", "200ms"]);
  await leaving.ok("terminal_open", { argv: ["bash"], name: "leave1" });
  const pidFile = path.join(agent.dir, "exec-leave");
  const pending = await leaving.ok<Exec>("terminal_exec", { session: "leave1", command: `sh -c 'echo $$ > "${pidFile}"; exec sleep 999'` });
  assert.equal(pending.done, false);
  const sleeper = await waitFor(() => existsSync(pidFile) && Number(readFileSync(pidFile, "utf8").trim()), { what: "the command's pid" }) as number;
  await leaving.close();
  assert.equal(leaving.ended().signal, null, "the server was not killed: it exited when its client left");
  assert.ok(isAlive(sleeper), "the command keeps running in its session");
  const sent = await mcp.ok<{ at: number }>("terminal_send", { session: "leave1", keys: ["C-c"] });
  assert.equal((await mcp.ok<{ fired: string }>("terminal_wait", { session: "leave1", commandDone: true, after: sent.at, timeoutMs: 60_000 })).fired, "command");
  await mcp.ok("terminal_close", { session: "leave1", force: true });
});

test("a cancelled wait ends only the wait: the command keeps running in the session until stopped", async () => {
  await mcp.ok("terminal_open", { argv: ["bash"], name: "cancel1" });
  const pidFile = path.join(agent.dir, "exec-sleeper");
  const controller = new AbortController();
  const pending = mcp.call("terminal_exec", { session: "cancel1", command: `sh -c 'echo $$ > "${pidFile}"; exec sleep 999'` }, { signal: controller.signal });
  pending.catch(() => {});
  const sleeper = await waitFor(() => existsSync(pidFile) && Number(readFileSync(pidFile, "utf8").trim()), { what: "the command's pid" }) as number;
  controller.abort();
  await assert.rejects(pending);
  assert.ok(isAlive(sleeper), "the command keeps running after the cancelled wait");
  await mcp.ok("terminal_send", { session: "cancel1", keys: ["C-c"] });
  await waitFor(() => !isAlive(sleeper), { what: "Ctrl-C to end the command" });
  const next = await waitFor(async () => {
    const result = await mcp.call("terminal_exec", { session: "cancel1", command: "echo after" });
    return result.isError === true && /^shell_busy: /.test(errorText(result)) ? undefined : result;
  }, { what: "the shell to take the next command" });
  assert.equal((next.structuredContent as unknown as Exec).output, "after\n");
  await mcp.ok("terminal_close", { session: "cancel1", force: true });
});

test("the timeout: the command keeps running (its output so far in the spill), or with interrupt gets Ctrl-C; terminal_wait commandDone sees it end", async () => {
  await mcp.ok("terminal_open", { argv: ["bash"], name: "late1" });
  // The shell's first prompt is awaited within the timeout too: it comes first, under the default one.
  assert.equal((await exec("late1", "true")).status, 0);
  const pidFile = path.join(agent.dir, "exec-late");
  const late = await mcp.call("terminal_exec", { session: "late1", command: `echo partial; sh -c 'echo $$ > "${pidFile}"; exec sleep 999'`, timeoutMs: 1000 });
  assert.equal(late.isError, true);
  const message = errorText(late);
  assert.match(message, /^timeout: the command did not finish within .*; it is still running in session .*terminal_wait on late1 with commandDone:true.*; its output so far: /);
  const spill = message.slice(message.lastIndexOf("its output so far: ") + "its output so far: ".length);
  const sleeper = await waitFor(() => existsSync(pidFile) && Number(readFileSync(pidFile, "utf8").trim()), { what: "the command's pid" }) as number;
  await waitFor(() => readFileSync(spill, "utf8") === "partial\n", { what: "the spill to hold what the command printed before its sleep" });
  assert.ok(isAlive(sleeper), "at the timeout the command keeps running");
  const sent = await mcp.ok<{ at: number }>("terminal_send", { session: "late1", keys: ["C-c"] });
  const ended = await mcp.ok<{ fired: string; command: { status: number } }>("terminal_wait", { session: "late1", commandDone: true, after: sent.at, timeoutMs: 60_000 });
  assert.deepEqual([ended.fired, ended.command.status], ["command", 130]);
  assert.ok(!isAlive(sleeper));
  const interrupted = await mcp.call("terminal_exec", { session: "late1", command: "sleep 999", timeoutMs: 500, interrupt: true, graceMs: 60_000 });
  assert.match(errorText(interrupted), /^timeout: the command did not finish within .*; interrupted with Ctrl-C, it ended with status 130/);
  assert.equal((await exec("late1", "echo next")).output, "next\n", "the shell takes the next command");
  await mcp.ok("terminal_close", { session: "late1", force: true });
});

test("refused: a session without shell integration, an unknown session, no command", async () => {
  // An argument corral does not hook a shell with (bash --norc and --noprofile it does).
  await mcp.ok("terminal_open", { argv: ["bash", "--posix"], name: "plain1" });
  await mcp.ok("terminal_open", { argv: ["bash"], name: "plain2", shellIntegration: false });
  for (const session of ["plain1", "plain2"]) {
    const refused = await mcp.call("terminal_exec", { session, command: "echo hi" });
    assert.equal(refused.isError, true, session);
    assert.match(errorText(refused), /^no_shell_integration: .*open a shell with terminal_open argv \["bash"\]/, session);
  }
  assert.match(errorText(await mcp.call("terminal_exec", { session: "nobody", command: "true" })), /^unknown_session: /);
  assert.match(errorText(await mcp.call("terminal_exec", { session: "plain1" })), /^bad_request: "command" is required/);
  assert.match(errorText(await mcp.call("terminal_exec", { session: "plain1", command: "  " })), /^bad_request: "command" is empty/);
  for (const session of ["plain1", "plain2"]) await mcp.ok("terminal_close", { session, force: true });
});

test("--read-only refuses terminal_exec; --allow matches its command line as run's", async (t) => {
  const readOnly = await mcpSession(agent, ["--read-only"]);
  t.after(() => readOnly.close());
  assert.ok(!(await readOnly.client.listTools()).tools.some((tool) => tool.name === "terminal_exec"), "not offered");
  await mcp.ok("terminal_open", { argv: ["bash"], name: "ro1" });
  const refused = await readOnly.call("terminal_exec", { session: "ro1", command: "echo hi" });
  assert.match(errorText(refused), /^read_only: terminal_exec is refused: this server runs with --read-only/);
  const allowing = await mcpSession(agent, ["--allow", "echo *"]);
  t.after(() => allowing.close());
  assert.equal((await allowing.ok<Exec>("terminal_exec", { session: "ro1", command: "echo allowed" })).output, "allowed\n");
  assert.match(errorText(await allowing.call("terminal_exec", { session: "ro1", command: "touch x" })), /^not_allowed: "touch x" matches no --allow pattern/);
  assert.match(errorText(await allowing.call("terminal_exec", { session: "ro1", command: "echo a; touch x" })), /^not_allowed: with --allow, a "command" string may not hold shell operators/);
  await mcp.ok("terminal_close", { session: "ro1", force: true });
});
