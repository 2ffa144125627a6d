// `corral mcp`'s run tool through the SDK's own client over stdio: a build of
// 200,000 lines comes back bounded with exact elision counts and a
// byte-exact spill; a child that backgrounds `sleep 999` comes back with the
// survivor named and nothing left running; a wait goes on through three
// cursors; a cancelled run leaves no process; the output is shaped for a
// model; --read-only and --allow refuse what they should.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { errorText, mcpSession, type McpSession } from "../../support/mcp-client.ts";
import { isAlive } from "../../support/processes.ts";
import { corral } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";

let agent: PrivateAgent;
let mcp: McpSession;

interface RunAnswer {
  done: boolean;
  cursor?: string;
  status: number | null;
  exit: { timedOut: boolean; code: number | null } | null;
  output: string;
  bytes: number;
  lines: number;
  elided: { bytes: number; lines: number; keptIn: string | null } | null;
  clippedLines: number;
  spill: string | null;
  survivors: { pid: number; argv: string[] }[];
  scrubbed: string[];
}

before(async () => {
  agent = privateAgent("mcp-run");
  mcp = await mcpSession(agent, ["--budget", "2000", "--max-line", "500"], { MCP_TEST_API_TOKEN: "hunter2" });
});

after(async () => {
  await mcp?.close();
  await agent.stop();
});

test("a build of 200,000 lines: head and tail within the budget, the cut counted exactly, every byte in the spill", async () => {
  const run = await mcp.ok<RunAnswer>("run", { argv: ["seq", "1", "200000"] });
  const whole = Array.from({ length: 200000 }, (_, i) => `${i + 1}\n`).join("");
  assert.equal(run.status, 0);
  assert.equal(run.bytes, Buffer.byteLength(whole));
  assert.equal(run.lines, 200000);
  assert.ok(run.output.length <= 2000 + 200, `output within the budget: ${run.output.length}`);
  const [head, marker, ...rest] = run.output.split(/(\[\.\.\. .* elided; .*\.\.\.\]\n)/);
  assert.ok(marker !== undefined && head !== undefined, "the cut is stated in the text");
  const headLines = head.split("\n").slice(0, -1).map(Number);
  const tailLines = rest.join("").split("\n").slice(0, -1).map(Number);
  assert.deepEqual(headLines, headLines.map((_, i) => i + 1), "the head is lines 1..k");
  const lastHead = headLines.at(-1) as number;
  const firstTail = tailLines[0] as number;
  assert.equal(tailLines.at(-1), 200000, "the tail ends with the last line");
  assert.deepEqual(tailLines, tailLines.map((_, i) => firstTail + i));
  const elidedText = whole.slice(Buffer.byteLength(head), Buffer.byteLength(whole) - Buffer.byteLength(rest.join("")));
  assert.deepEqual(run.elided, { bytes: Buffer.byteLength(elidedText), lines: firstTail - lastHead - 1, keptIn: run.spill });
  assert.match(marker, new RegExp(`${run.elided?.bytes} bytes, ${run.elided?.lines} lines elided; all of it is in `));
  assert.ok(run.spill !== null);
  assert.equal(readFileSync(run.spill).toString("latin1"), whole, "the spill is byte-exact");
});

test("a child that backgrounds sleep 999: the answer comes, names the survivor, and nothing is left running", async () => {
  const run = await mcp.ok<RunAnswer>("run", { command: "sleep 999 & echo started" });
  assert.equal(run.status, 0);
  assert.equal(run.exit?.timedOut, false);
  assert.match(run.output, /started/);
  const sleeper = run.survivors.find((s) => s.argv.join(" ") === "sleep 999");
  assert.ok(sleeper !== undefined, `sleep 999 named among ${JSON.stringify(run.survivors)}`);
  assert.equal(isAlive(sleeper.pid), false, "the survivor was ended before the answer");
});

test("a survivor caught between its fork and its exec is named by what it execs", async () => {
  // The subshell keeps the shell's command line until it execs `sleep 998`, after the shell has exited.
  const run = await mcp.ok<RunAnswer>("run", { command: "(sleep 0.02; exec sleep 998) & echo started" });
  assert.equal(run.status, 0);
  const sleeper = run.survivors.find((s) => s.argv.join(" ") === "sleep 998");
  assert.ok(sleeper !== undefined, `sleep 998 named among ${JSON.stringify(run.survivors)}`);
  assert.equal(isAlive(sleeper.pid), false, "the survivor was ended before the answer");
});

test("a wait goes on through three cursors, with progress meanwhile, until the command ends", async (t) => {
  const capped = await mcpSession(agent, ["--wait-cap", "200ms"]);
  t.after(() => capped.close());
  const gate = path.join(agent.dir, "go");
  const progress: string[] = [];
  const first = await capped.call("run", { command: `while [ ! -e '${gate}' ]; do sleep 0.05; done; echo finished` }, {
    onprogress: (p) => progress.push(p.message ?? ""),
  });
  let answer = first.structuredContent as unknown as RunAnswer;
  const cursors: string[] = [];
  while (cursors.length < 3) {
    assert.equal(answer.done, false);
    assert.ok(answer.cursor !== undefined);
    cursors.push(answer.cursor);
    answer = (await capped.ok<RunAnswer>("run", { cursor: answer.cursor }));
  }
  assert.equal(answer.done, false, "still running: the gate is shut");
  writeFileSync(gate, "");
  const last = await waitFor(async () => {
    const next = await capped.ok<RunAnswer>("run", { cursor: answer.cursor });
    if (!next.done) answer = next;
    return next.done ? next : undefined;
  }, { what: "the run to end after the gate opened" });
  assert.equal(last.status, 0);
  assert.match(last.output, /finished/);
  assert.equal(new Set(cursors).size, 3, "each call gave a new cursor");
  assert.ok(progress.length > 0, "progress notifications came while it waited");
  const reused = await capped.call("run", { cursor: cursors[0] });
  assert.equal(reused.isError, true);
  assert.match(errorText(reused), /^unknown_cursor: /);
});

test("a cancelled run ends its whole tree", async () => {
  const pids = path.join(agent.dir, "cancel-pids");
  const controller = new AbortController();
  const pending = mcp.call("run", { command: `sleep 999 & echo "$$ $!" > '${pids}'; wait` }, { signal: controller.signal });
  pending.catch(() => {});
  const [shell, sleeper] = await waitFor(() => existsSync(pids) && readFileSync(pids, "utf8").trim().split(" ").map(Number).filter((n) => n > 0).length === 2 && readFileSync(pids, "utf8").trim().split(" ").map(Number), { what: "the run's pids" }) as number[];
  controller.abort();
  await assert.rejects(pending);
  await waitFor(() => !isAlive(shell as number) && !isAlive(sleeper as number), { what: "the cancelled run's tree to be gone" });
});

test("the client going away ends the runs still going; the server exits", async () => {
  const leaving = await mcpSession(agent);
  const pids = path.join(agent.dir, "leave-pids");
  const pending = leaving.call("run", { command: `sleep 999 & echo "$!" > '${pids}'; wait` });
  pending.catch(() => {});
  const sleeper = await waitFor(() => existsSync(pids) && Number(readFileSync(pids, "utf8").trim()), { what: "the run's pid" });
  await leaving.close();
  await waitFor(() => !isAlive(sleeper as number), { what: "the run's tree to be gone with its client" });
});

test("output shaped for a model: ANSI removed, redraws collapsed, a long line clipped, nothing cut unsaid", async () => {
  const long = "x".repeat(1500);
  const run = await mcp.ok<RunAnswer>("run", { argv: ["printf", `\u001b[31mred\u001b[0m\n10%%\r50%%\r100%%\n${long}\n`] });
  const [red, bar, clipped] = run.output.split("\n");
  assert.equal(red, "red");
  assert.equal(bar, "100%");
  assert.match(clipped as string, /^x+\[\.\.\. \d+ characters clipped \.\.\.\]x+$/);
  assert.equal(run.clippedLines, 1);
  assert.equal(run.elided, null);
});

test("the timeout ends the tree: status 124; stdin is /dev/null unless given; credentials are not passed and are named", async () => {
  const slow = await mcp.ok<RunAnswer>("run", { argv: ["sleep", "999"], timeoutMs: 300, graceMs: 500 });
  assert.equal(slow.status, 124);
  assert.equal(slow.exit?.timedOut, true);
  const reader = await mcp.ok<RunAnswer>("run", { argv: ["cat"] });
  assert.equal(reader.status, 0);
  assert.equal(reader.output, "");
  const fed = await mcp.ok<RunAnswer>("run", { argv: ["cat"], stdin: "fed\n" });
  assert.equal(fed.output, "fed\n");
  const env = await mcp.ok<RunAnswer>("run", { command: 'echo "token=${MCP_TEST_API_TOKEN:-unset} prompt=$GIT_TERMINAL_PROMPT"' });
  assert.equal(env.output, "token=unset prompt=0\n");
  assert.ok(env.scrubbed.includes("MCP_TEST_API_TOKEN"));
});

test("a run waiting for terminal input it cannot get answers at once instead of hanging until its timeout", async () => {
  // Stopped as SIGTTIN stops a read of a terminal the run does not own (SIGSTOP: the same state, in any session).
  const stopped = await mcp.ok<RunAnswer & { awaitingInput: boolean }>("run", { command: "echo before; kill -STOP $$; echo after", timeoutMs: 600_000, graceMs: 500 });
  assert.deepEqual([stopped.done, stopped.awaitingInput, stopped.output], [true, true, "before\n"]);
  assert.equal(stopped.exit?.timedOut, false);
  // Without a terminal, a program that opens /dev/tty fails at once (or, under a terminal, stops as above).
  const prompt = await mcp.ok<RunAnswer & { awaitingInput: boolean }>("run", { command: "read answer < /dev/tty", timeoutMs: 600_000, graceMs: 500 });
  assert.equal(prompt.done, true);
  assert.ok(prompt.awaitingInput || prompt.status !== 0, JSON.stringify(prompt));
});

test("run refuses what cannot run, with the reason", async () => {
  const missing = await mcp.call("run", { argv: ["corral-no-such-program"] });
  assert.equal(missing.isError, true);
  assert.match(errorText(missing), /^command_not_found: corral-no-such-program: command not found on PATH \(exit status 127\)/);
  const both = await mcp.call("run", { argv: ["true"], command: "true" });
  assert.match(errorText(both), /^bad_request: give either "command" .* or "argv"/);
  const typo = await mcp.call("run", { argv: ["true"], timeout: 5 });
  assert.match(errorText(typo), /^bad_request: run has no argument "timeout"; its arguments are .*timeoutMs/);
  const bad = await mcp.call("run", { argv: "true" });
  assert.match(errorText(bad), /^bad_request: run: "argv" must be an array/);
});

test("--read-only offers no run and refuses it; --allow starts only matching commands", async (t) => {
  const readOnly = await mcpSession(agent, ["--read-only"]);
  t.after(() => readOnly.close());
  const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
  assert.deepEqual(names.sort(), ["job_read", "job_wait", "terminal_list", "terminal_screen", "terminal_wait"]);
  const refused = await readOnly.call("run", { argv: ["true"] });
  assert.equal(refused.isError, true);
  assert.match(errorText(refused), /^read_only: run is refused: this server runs with --read-only/);
  const allowing = await mcpSession(agent, ["--allow", "echo *"]);
  t.after(() => allowing.close());
  assert.equal((await allowing.ok<RunAnswer>("run", { argv: ["echo", "allowed"] })).output, "allowed\n");
  assert.match(errorText(await allowing.call("run", { argv: ["touch", "x"] })), /^not_allowed: "touch x" matches no --allow pattern/);
  assert.match(errorText(await allowing.call("run", { command: "echo a; touch x" })), /^not_allowed: with --allow, a "command" string may not hold shell operators/);
});

test("bad flags: one line naming the flag and what would do, exit 2, before any server runs", async () => {
  for (const [flags, line] of [
    [["--wait-cap", "2m"], /^corral: --wait-cap must be between 100ms and 59s .*e\.g\. --wait-cap 30s\n$/],
    [["--budget", "5"], /^corral: --budget must be a whole number from 200 to 10000000, not "5"\n$/],
    [["--allow", ""], /^corral: --allow needs a glob of command lines, e\.g\. --allow 'make \*'\n$/],
  ] as const) {
    const result = await corral(["mcp", ...flags], { env: agent.env, input: "" });
    assert.equal(result.code, 2, flags.join(" "));
    assert.match(result.stderr, line);
    assert.equal(result.stdout.length, 0);
  }
});
