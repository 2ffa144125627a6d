// `corral jobs wait` with three jobs that end with 0, 3 and SIGKILL, in three
// orders (each kind first, second and last once): one line per job as it ends, exit 0 only when all succeeded, else the
// status of the first that failed. Each job waits for its own gate file, so
// the test decides the order (no sleeps, no timing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { corralCommand } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";
import { agentFor } from "../../support/jobs-fixture.ts";
import type { PrivateAgent } from "../../support/agent-harness.ts";
import { readdirSync, readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { repoRoot } from "../../support/corral-cli.ts";

/** The job shape every command prints (schemas/job.schema.json). */
function isJobShape(value: unknown): string | null {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const dir = path.join(repoRoot, "schemas");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".schema.json"))) ajv.addSchema(JSON.parse(readFileSync(path.join(dir, file), "utf8")));
  return ajv.validate("urn:corral:schema:job", value) ? null : ajv.errorsText();
}

type Kind = "ok" | "fail" | "killed";
const ENDINGS: Record<Kind, { script: string; status: number; words: RegExp }> = {
  ok: { script: "exit 0", status: 0, words: /done \(exit 0\)/ },
  fail: { script: "exit 3", status: 3, words: /done \(exit 3\)/ },
  killed: { script: "kill -KILL $$", status: 137, words: /done \(killed by SIGKILL\)/ },
};

/**
 * Three orders in which each kind ends once first, once second, once last
 * (a Latin square), and the first failure is `fail` in two and `killed` in
 * one: what the six permutations covered, with half the agents.
 */
const ORDERS: readonly (readonly Kind[])[] = [
  ["ok", "fail", "killed"],
  ["killed", "ok", "fail"],
  ["fail", "killed", "ok"],
];

/** `corral jobs wait ARGS` with its stdout readable while it runs. */
function startWait(agent: PrivateAgent, args: readonly string[]) {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...prefix, "jobs", "wait", ...args], { env: { ...process.env, ...agent.env }, stdio: ["ignore", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { out, exited, lines: () => out.stdout.split("\n").filter((l) => l !== "") };
}

/** Starts the three gated jobs, named after their kind. */
async function startJobs(agent: PrivateAgent): Promise<void> {
  for (const kind of Object.keys(ENDINGS) as Kind[]) {
    const gate = path.join(agent.dir, `gate-${kind}`);
    await agent.ok(["run", "--bg", "--name", kind, "--", "sh", "-c", `while [ ! -e ${gate} ]; do sleep 0.05; done; ${ENDINGS[kind].script}`]);
  }
}

ORDERS.forEach((order, index) => {
  const named = index % 2 === 0;
  test(`jobs wait ${named ? "ok fail killed" : "(all running)"}: ending ${order.join(", ")}`, async (t) => {
    const agent = agentFor(t, `wait-${index}`);
    await startJobs(agent);
    const wait = startWait(agent, named ? ["ok", "fail", "killed"] : []);
    // Without names it waits for the jobs running when it looked: a gate opened sooner would end one unseen.
    await waitFor(() => /^corral: waiting for %\d+ \(\w+\), %\d+ \(\w+\), %\d+ \(\w+\)\n/.test(wait.out.stderr), { what: "jobs wait to start", timeoutMs: 60_000 });
    for (const [k, kind] of order.entries()) {
      writeFileSync(path.join(agent.dir, `gate-${kind}`), "");
      await waitFor(() => wait.lines().length === k + 1, { what: `a line for ${kind}`, timeoutMs: 60_000 }).catch((error: Error) => {
        throw new Error(`${error.message}; jobs wait wrote ${JSON.stringify(wait.out)}`);
      });
      const line = wait.lines()[k] as string;
      assert.match(line, ENDINGS[kind].words, line);
      assert.match(line, new RegExp(`\\(${kind}\\)$`), line);
    }
    const firstFailure = order.find((kind) => ENDINGS[kind].status !== 0) as Kind;
    assert.equal(await wait.exited, ENDINGS[firstFailure].status, wait.out.stderr);
    assert.equal(wait.lines().length, 3);
  });
});

test("jobs wait: all succeeded is 0; --any returns with the first; --json lines; a finished job counts at once", async (t) => {
  const agent = agentFor(t, "wait-any");
  await agent.ok(["run", "--bg", "--name", "quick", "--", "true"]);
  await startJobs(agent);
  const any = startWait(agent, ["--any", "--json", "fail", "ok"]);
  writeFileSync(path.join(agent.dir, "gate-fail"), "");
  assert.equal(await any.exited, 3, any.out.stderr);
  const [only, ...more] = any.lines();
  assert.deepEqual(more, []);
  const { job } = JSON.parse(only as string) as { job: { name: string; state: string; status: number } };
  assert.deepEqual([job.name, job.state, job.status], ["fail", "done", 3]);
  assert.equal(isJobShape(job), null, "--json lines are {job}, the job object of corral jobs --json");
  writeFileSync(path.join(agent.dir, "gate-ok"), "");
  const both = startWait(agent, ["quick", "ok"]);
  assert.equal(await both.exited, 0, both.out.stderr);
  assert.equal(both.lines().length, 2);
  const timed = startWait(agent, ["--timeout", "1s", "killed"]);
  assert.equal(await timed.exited, 124);
  assert.match(timed.out.stderr, /--timeout 1s passed; still running: %\d+/, "the timeout in the words it was given");
  const unknown = startWait(agent, ["nosuch"]);
  assert.equal(await unknown.exited, 1);
  const malformed = startWait(agent, ["a/b"]);
  assert.equal(await malformed.exited, 2);
});

test("collect --job ID --tail-lines N reads the last N lines, from the spill or from what is kept", async (t) => {
  const agent = agentFor(t, "tail-lines");
  const spill = path.join(agent.dir, "all.log");
  await agent.ok(["run", "--bg", "--name", "spilled", "--head-bytes", "100", "--max-bytes", "1000", "--spill", spill, "--", "seq", "1", "100000"]);
  await agent.ok(["run", "--bg", "--name", "kept", "--head-bytes", "100", "--max-bytes", "1000", "--", "seq", "1", "100000"]);
  await agent.ok(["run", "--bg", "--name", "short", "--", "printf", "a\\nb\\nc"]);
  await agent.run(["jobs", "wait", "spilled", "kept", "short"]);
  const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join("");
  for (const n of [0, 1, 3, 20_000]) {
    const out = await agent.run(["collect", "--job", "spilled", "--tail-lines", String(n)]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.toString(), n === 0 ? "" : lines(100_001 - n, 100_000), `${n} lines`);
  }
  const kept = await agent.run(["collect", "--job", "kept", "--tail-lines", "500"]);
  assert.match(kept.stderr, /fewer than 500 lines are still kept \(no spill file\); starting at the first whole line/);
  const shown = kept.stdout.toString();
  assert.equal(shown, lines(Number(shown.split("\n")[0]), 100_000), "whole lines only");
  for (const [n, want] of [[2, "b\nc"], [3, "a\nb\nc"], [4, "a\nb\nc"]] as const) {
    assert.equal((await agent.run(["collect", "--job", "short", "--tail-lines", String(n)])).stdout.toString(), want, `${n} lines`);
  }
  assert.equal((await agent.run(["collect", "--job", "short", "--tail-lines", "1", "--from", "0"])).code, 2);
});
