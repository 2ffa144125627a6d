// `pty exec --json` and connect's {"op":"exec"} are one answer through two
// doors (DESIGN.md 4.11), in the shape of schemas/exec.schema.json; the
// screen's cwd and lastCommand and `pty wait --command-done` in theirs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";

const SCHEMAS = path.join(repoRoot, "schemas");
const ajv = new Ajv({ allErrors: true, strict: false });
for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith(".schema.json"))) {
  ajv.addSchema(JSON.parse(readFileSync(path.join(SCHEMAS, file), "utf8")));
}

function check(kind: string, value: unknown): void {
  const validate = ajv.getSchema(`urn:corral:schema:commands#/definitions/${kind}`);
  assert.ok(validate, `a schema for ${kind}`);
  assert.ok(validate(value), `${kind}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`);
}

let agent: PrivateAgent;
before(() => {
  agent = privateAgent("exec-json");
});
after(async () => {
  await agent.stop();
});

/** Replies of `corral connect` to these requests, one per line. */
async function connect(requests: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const [file, ...args] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...args, "connect"], { cwd: repoRoot, env: { ...process.env, ...agent.env }, stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.end(requests.map((r) => `${JSON.stringify(r)}\n`).join(""));
  let out = "";
  for await (const chunk of child.stdout) out += String(chunk);
  return out.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}

test("exec through the CLI and through connect: one shape, the same answer", async () => {
  await agent.ok(["pty", "open", "--name", "b", "--", "bash"]);
  const ran = await agent.run(["pty", "exec", "b", "--json", "--timeout", "60s", "--", "printf 'a\\nb\\n'; (exit 5)"]);
  assert.equal(ran.code, 5, "the command's status is corral's");
  const cli = JSON.parse(ran.stdout.toString()) as Record<string, unknown>;
  check("pty-exec", cli);
  const [viaConnect, failed] = await connect([
    { op: "exec", session: "b", command: "printf 'a\\nb\\n'; (exit 5)", timeoutMs: 60_000 },
    { op: "exec", session: "nobody", command: "true" },
  ]);
  assert.equal(viaConnect?.ok, true, JSON.stringify(viaConnect));
  const { ok: _ok, ...body } = viaConnect as Record<string, unknown>;
  check("pty-exec", body);
  const same = (r: Record<string, unknown>) => [r.output, r.status, r.signal, r.cwd, r.truncated, r.bytes, r.lines];
  assert.deepEqual(same(body), same(cli));
  assert.deepEqual(same(cli), ["a\nb\n", 5, null, repoRoot, false, 4, 2]);
  check("error", failed);
  assert.equal((failed?.error as { code: string }).code, "unknown_session");
});

test("the screen names the shell's directory and last command; wait --command-done sees a typed one finish", async () => {
  await agent.ok(["pty", "open", "--name", "w", "--", "bash"]);
  await agent.run(["pty", "exec", "w", "--", "cd /tmp"]);
  const screen = JSON.parse(await agent.ok(["pty", "screen", "w", "--json"])) as { screen: Record<string, unknown> };
  check("pty-screen", screen);
  assert.equal(screen.screen.cwd, "/tmp");
  assert.deepEqual({ ...(screen.screen.lastCommand as object), at: 0 }, { line: "cd /tmp", status: 0, at: 0 });
  const sent = JSON.parse(await agent.ok(["pty", "send", "w", "sh -c 'exit 6'", "--key", "Enter", "--json"])) as { at: number };
  const waited = JSON.parse(await agent.ok(["pty", "wait", "w", "--after", String(sent.at), "--command-done", "--json", "--timeout", "60s"]));
  check("pty-wait", waited);
  assert.deepEqual([waited.fired, waited.command.status, waited.command.cwd], ["command", 6, "/tmp"]);
  // Without shell integration there is no command to wait for: a clear error.
  await agent.ok(["pty", "open", "--name", "plain", "--no-shell-integration", "--", "bash"]);
  const refused = await agent.run(["pty", "exec", "plain", "--", "true"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr.toString(), /^corral: session \d+ has no shell integration/);
  const screenPlain = JSON.parse(await agent.ok(["pty", "screen", "plain", "--json"])) as { screen: Record<string, unknown> };
  assert.equal("cwd" in screenPlain.screen, false, "no cwd without shell integration");
});
