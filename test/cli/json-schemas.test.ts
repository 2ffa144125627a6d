// One JSON shape per concept (DESIGN.md 4.8): every command's --json output
// and every connect reply validated with ajv against the schemas shipped in
// schemas/, so a jq filter written against one command works on the others.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { privateAgent, type PrivateAgent } from "../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../support/corral-cli.ts";
import { corralInProcess } from "../support/corral-in-process.ts";

const SCHEMAS = path.join(repoRoot, "schemas");
const ajv = new Ajv({ allErrors: true, strict: false });
for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith(".schema.json"))) {
  ajv.addSchema(JSON.parse(readFileSync(path.join(SCHEMAS, file), "utf8")));
}

/** Throws naming what differs when `value` is not of command `kind`'s shape. */
function check(kind: string, value: unknown): void {
  const validate = ajv.getSchema(`urn:corral:schema:commands#/definitions/${kind}`);
  assert.ok(validate, `a schema for ${kind}`);
  assert.ok(validate(value), `${kind}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`);
}

/** Single-line JSON on stdout, validated. */
function checkOutput(kind: string, stdout: string): Record<string, unknown> {
  assert.equal(stdout.trimEnd().split("\n").length, 1, `${kind} prints one line`);
  const value = JSON.parse(stdout) as Record<string, unknown>;
  check(kind, value);
  return value;
}

let agent: PrivateAgent;
before(() => {
  agent = privateAgent("schemas");
});
after(async () => {
  await agent.stop();
});

test("the schemas reject the old shapes", () => {
  const screen = { id: "1", name: null, rows: ["x"], size: { cols: 1, rows: 1 } };
  assert.equal(ajv.validate("urn:corral:schema:screen", screen), false, "a screen has lines, never rows");
  assert.equal(ajv.validate("urn:corral:schema:job", { id: 1 }), false, "a job id is %N");
  assert.equal(ajv.validate("urn:corral:schema:commands#/definitions/pty-list", []), false, "list is {sessions: [...]}");
  assert.equal(ajv.validate("urn:corral:schema:commands#/definitions/pty-resize", { cols: 80, rows: 24 }), false, "resize is {session}, its size nested");
  const oldReap = { items: [{ kind: "job", id: "%1", name: null, argv: ["true"], pid: 1, terminated: false, exit: null, status: 0, receipt: { status: "confirmed", forced: false, reason: null } }], orphans: [] };
  assert.equal(ajv.validate("urn:corral:schema:commands#/definitions/reap", oldReap), false, "reap is {jobs, sessions, orphans}");
  const orphan = { guardianPid: 2, agentPid: 1, job: 1, argv: ["x"], action: "a", receipt: { status: "confirmed", forced: false, reason: null } };
  assert.equal(ajv.validate("urn:corral:schema:orphan", orphan), false, "an orphan's job is {id: \"%N\", number}");
  assert.equal(ajv.validate("urn:corral:schema:orphan", { ...orphan, job: { id: "%1", number: 1 } }), true);
});

/**
 * The command line run in-process (test/support/corral-in-process.ts) against
 * the private agent, once a CLI child has started it: the same output through
 * the same application, without a runtime start-up for each of ~20 commands.
 * (In-process a command must never start the agent: it would start this file.)
 */
async function run(args: readonly string[]) {
  const r = await corralInProcess(args, { env: agent.env });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}
async function ok(args: readonly string[]): Promise<string> {
  const r = await run(args);
  assert.equal(r.code, 0, `corral ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.toString("utf8");
}

test("every command's --json output has the shape of its schema", async () => {
  const opened = checkOutput("pty-open", await agent.ok(["pty", "open", "--name", "sch", "--json", "--", "sh", "-c", "echo ready; read x; echo got $x; read y; read z"]));
  const id = (opened.session as { id: string }).id;
  checkOutput("pty-wait", await ok(["pty", "wait", "sch", "--text", "ready", "--json", "--timeout", "20s"]));
  const sent = checkOutput("pty-send", await ok(["pty", "send", "sch", "one", "--key", "Enter", "--json"]));
  const waited = checkOutput("pty-wait", await ok(["pty", "wait", id, "--after", String(sent.at), "--regex", "^got (\\w+)$", "--json", "--timeout", "20s"]));
  assert.deepEqual((waited.match as { groups: string[] }).groups, ["one"]);
  checkOutput("pty-send", await ok(["pty", "send", "sch", "two", "--key", "Enter", "--json", "--wait-stable", "100ms", "--timeout", "20s"]));
  checkOutput("pty-screen", await ok(["pty", "screen", "sch", "--json", "--scrollback", "5"]));
  checkOutput("pty-list", await ok(["pty", "list", "--json"]));
  const recorded = checkOutput("pty-record", await ok(["pty", "record", "sch", path.join(agent.dir, "sch.cast"), "--json"]));
  assert.equal((recorded.session as { name: string }).name, "sch", "session is the session object, not its id");
  checkOutput("pty-record", await ok(["pty", "record", "sch", "--stop", "--json"]));
  const resized = checkOutput("pty-resize", await ok(["pty", "resize", "sch", "--cols", "70", "--rows", "15", "--json"]));
  assert.deepEqual((resized.session as { size: unknown }).size, { cols: 70, rows: 15 });
  checkOutput("pty-close", await ok(["pty", "close", "sch", "--json"]));
  checkOutput("pty-list", await ok(["pty", "list", "--json"]));
  assert.match(await ok(["run", "--bg", "--", "sh", "-c", "echo bg"]), /^%\d+/);
  assert.match(await ok(["run", "--bg", "--", "sleep", "600"]), /^%\d+/);
  await ok(["pty", "open", "--name", "long", "--", "sleep", "600"]);
  checkOutput("jobs", await ok(["jobs", "--json"]));
  checkOutput("jobs-wait", await ok(["jobs", "wait", "%1", "--json", "--timeout", "30s"]));
  const reaped = await run(["reap", "--all", "--grace", "2s", "--json"]);
  assert.equal(reaped.code, 0, reaped.stderr.toString());
  const reap = checkOutput("reap", reaped.stdout.toString()) as { jobs: { terminated: boolean }[]; sessions: { name: string; terminated: boolean }[] };
  assert.deepEqual(reap.jobs.map((j) => j.terminated).sort(), [false, true], "a finished job and a terminated one");
  assert.deepEqual(reap.sessions.map((s) => [s.name, s.terminated]).sort(), [["long", true], ["sch", false]]);
  checkOutput("collect", await ok(["collect", "--json", "--", "echo", "hi"]));
  checkOutput("agent-status", await ok(["agent", "status", "--json"]));
  checkOutput("agent-status", await ok(["agent", "start", "--json"]));
  checkOutput("config", await ok(["config", "--json"]));
  checkOutput("probe", (await run(["probe", "--json"])).stdout.toString());
});

test("agent status and stop keep their shapes when no agent runs", async () => {
  const lone = privateAgent("schemas-none");
  try {
    const status = await lone.run(["agent", "status", "--json"]);
    assert.equal(status.code, 1);
    assert.equal(checkOutput("agent-status", status.stdout.toString()).running, false);
    assert.equal(checkOutput("agent-stop", await lone.ok(["agent", "stop", "--json"])).stopped, false);
    // Issue 11: a session kept across a restart, a refused stop, then --force naming what it ended.
    await lone.ok(["pty", "open", "--name", "kept", "--", "sleep", "600"]);
    const restarted = checkOutput("agent-restart", await lone.ok(["agent", "restart", "--json"]));
    assert.deepEqual([restarted.sessions, restarted.jobs, restarted.lost], [["1"], [], []]);
    const refused = await lone.run(["agent", "stop", "--json"]);
    assert.equal(refused.code, 1);
    assert.deepEqual(checkOutput("agent-stop", refused.stdout.toString()).running, { sessions: ["1 (kept)"], jobs: [] });
    assert.deepEqual(checkOutput("agent-stop", await lone.ok(["agent", "stop", "--force", "--json"])).ended, { sessions: ["1 (kept)"], jobs: [] });
  } finally {
    await lone.stop();
  }
});

test("every connect reply has the shape of the command of the same name", async () => {
  const [file, ...args] = corralCommand() as [string, ...string[]];
  const requests: Array<[string, Record<string, unknown>]> = [
    ["pty-open", { op: "open", argv: ["sh", "-c", "echo ready; read x; echo got $x; read y; read z"], name: "con" }],
    ["pty-wait", { op: "wait", session: "con", text: ["ready"], timeoutMs: 20_000 }],
    ["pty-send", { op: "send", session: "con", text: "abc", keys: ["Enter"], wait: { regex: ["^got (abc)$"], timeoutMs: 20_000 } }],
    ["pty-screen", { op: "screen", session: "con" }],
    ["pty-resize", { op: "resize", session: "con", cols: 50, rows: 10 }],
    ["pty-record", { op: "record", session: "con", stop: true }],
    ["pty-list", { op: "list" }],
    ["pty-close", { op: "close", session: "con", graceMs: 500 }],
    ["job-start", { op: "job-start", argv: ["true"], tty: false, headBytes: 1024, maxBytes: 1024, graceMs: 500 }],
    ["jobs", { op: "jobs" }],
    ["job-start", { op: "job-start", argv: ["sleep", "600"], tty: false, headBytes: 1024, maxBytes: 1024, graceMs: 500 }],
    ["reap", { op: "reap", all: true, graceMs: 2000 }],
    ["agent-status", { op: "agent-status" }],
    ["error", { op: "screen", session: "nobody" }],
    ["error", { op: "wait", session: "con", regex: "(?=lookahead)" }],
  ];
  const child = spawn(file, [...args, "connect"], { cwd: repoRoot, env: { ...process.env, ...agent.env }, stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.end(requests.map(([, r]) => `${JSON.stringify(r)}\n`).join(""));
  let out = "";
  for await (const chunk of child.stdout) out += String(chunk);
  const replies = out.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(replies.length, requests.length);
  replies.forEach((reply, i) => {
    const [kind] = requests[i] as [string, unknown];
    if (kind === "error") return check("error", reply);
    assert.equal(reply.ok, true, JSON.stringify(reply));
    const { ok: _ok, ...body } = reply;
    check(kind, body);
  });
});

test("every command with --json prints the error object on stdout when it fails, with its usual status", async () => {
  const cases: [readonly string[], number, string][] = [
    [["collect", "--json", "--", "/nonexistent/corral-test"], 127, "command_not_found"],
    [["collect", "--json", "--timeout", "soon", "--", "true"], 2, "bad_request"],
    [["collect", "--json", "--no-such-flag", "--", "true"], 2, "bad_request"],
    [["pty", "wait", "--json", "nosuch", "--text", "x"], 1, "unknown_session"],
    [["pty", "screen", "--json", "nosuch"], 1, "unknown_session"],
    [["pty", "send", "--json", "nosuch", "x"], 1, "unknown_session"],
    [["jobs", "--json", "--bogus"], 2, "bad_request"],
  ];
  for (const [args, status, code] of cases) {
    // pty commands reach the agent: a CLI child (in-process must never start one).
    const r = args[0] === "pty" ? await agent.run(args) : await run(args);
    assert.equal(r.code, status, `corral ${args.join(" ")}: ${r.stderr}`);
    const value = checkOutput("error", r.stdout.toString("utf8"));
    assert.deepEqual([value.ok, (value.error as { code: string }).code], [false, code], args.join(" "));
  }
  // A command that ran and failed keeps its own object (its exit facts), with no ok: false.
  const ran = await run(["collect", "--json", "--", "sh", "-c", "exit 3"]);
  assert.equal(ran.code, 3);
  const report = checkOutput("collect", ran.stdout.toString("utf8"));
  assert.notEqual(report.ok, false);
});

test("the error schema's codes are the codes corral has (and failed, a command's failure without one)", async () => {
  const { EXIT_STATUS_OF_CODE } = await import("../../lib/core/corral-error.ts");
  const schema = JSON.parse(readFileSync(path.join(SCHEMAS, "commands.schema.json"), "utf8")) as {
    definitions: { error: { properties: { error: { properties: { code: { enum: string[] } } } } } };
  };
  const codes = schema.definitions.error.properties.error.properties.code.enum;
  assert.deepEqual([...codes].sort(), [...Object.keys(EXIT_STATUS_OF_CODE), "failed"].sort());
});
