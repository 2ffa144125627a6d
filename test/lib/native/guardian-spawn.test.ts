// The guardian as run/collect's pipe-tree adapter: an escapee left behind by the
// child is gone when `exited` resolves (the process-group backend cannot do
// that: test/lib/supervise/spawn-tree.test.ts), facts come from waitpid, sinks get every
// byte, spawn failures keep their statuses, and the backend choice follows
// the config key and $CORRAL_GUARDIAN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildGuardian, escapeeScript, python, tempDir } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { supervise } from "../../../lib/supervise/supervise.ts";
import { endOf } from "../../../lib/supervise/start.ts";
import { guardianTree } from "../../../lib/supervise/guardian/tree.ts";
import { chooseSupervisor, decideBackend, GuardianUnavailableError } from "../../../lib/supervise/decide.ts";
import { SpawnError } from "../../../lib/supervise/spawn-error.ts";
import type { ByteSink } from "../../../lib/supervise/spec.ts";

const bin = buildGuardian();
const backend = guardianTree(bin.plain);
const env = { ...process.env } as Record<string, string>;

function memorySink(): ByteSink & { bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  return { write: (c) => (chunks.push(Buffer.from(c)), true), onDrain: () => {}, bytes: () => Buffer.concat(chunks) };
}

test("guardian backend: when the child exits, the escapee it left is terminated before exited resolves", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const pidfile = path.join(dir, "pid");
  const script = `${python} ${escapeeScript(dir)} ${pidfile} & while [ ! -s ${pidfile} ]; do :; done; exit 3`;
  const child = await supervise({ argv: ["sh", "-c", script], env, stdin: "ignore", stdout: "ignore", stderr: "inherit", graceMs: 200 }, backend);
  const result = await endOf(child);
  const escapee = Number(readFileSync(pidfile, "utf8"));
  assert.equal(result.facts.code, 3);
  assert.equal(result.facts.forced, true, "the escapee ignored SIGTERM");
  assert.deepEqual(result.uncertain, []);
  assert.equal(isAlive(escapee), false);
});

test("guardian backend: sinks get every byte, stderr merged, facts from waitpid; timeout gives timedOut", { timeout: 120_000 }, async () => {
  const sink = memorySink();
  const child = await supervise({
    argv: ["sh", "-c", "head -c 3000000 /dev/zero; echo err >&2; kill -USR1 $$"],
    env, stdin: "ignore", stdout: { sink }, stderr: "stdout", graceMs: 1000,
  }, backend);
  const { facts } = await endOf(child);
  assert.equal(sink.bytes().length, 3_000_004);
  assert.equal(facts.signal, "SIGUSR1");
  assert.equal(facts.outputComplete, true);
  const slow = await supervise({ argv: ["sleep", "1000"], env, stdin: "ignore", stdout: "ignore", stderr: "ignore", graceMs: 1000, timeoutMs: 100 }, backend);
  const late = await endOf(slow);
  assert.equal(late.facts.timedOut, true);
  assert.equal(late.facts.signal, "SIGTERM");
});

test("guardian backend: a piped stdin reaches the child; a missing program is a SpawnError", { timeout: 120_000 }, async () => {
  const child = await supervise({ argv: ["tr", "a-z", "A-Z"], env, stdin: "pipe", stdout: "pipe", stderr: "ignore", graceMs: 1000 }, backend);
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stdin?.end("hello");
  const { facts } = await endOf(child);
  assert.equal(facts.code, 0);
  await waitFor(() => out === "HELLO", { what: "the upper-cased echo" });
  await assert.rejects(
    backend.startPipe!({ spec: { argv: ["/nonexistent/x"], env, graceMs: 100 }, file: "/nonexistent/x", cwd: "/" }),
    (e: unknown) => e instanceof SpawnError && e.exitStatus === 127,
  );
});

test("backend choice: config key and $CORRAL_GUARDIAN", { timeout: 120_000 }, () => {
  const pipe = (guardian: "auto" | "always" | "never", env: Record<string, string>) => chooseSupervisor({ mode: "pipe", sweep: "on-exit", guardian, env }).supervisor;
  assert.equal(pipe("auto", { CORRAL_GUARDIAN_BIN: bin.plain }), "guardian");
  assert.equal(pipe("auto", { CORRAL_GUARDIAN_BIN: bin.plain, CORRAL_GUARDIAN: "never" }), "process-group");
  assert.equal(pipe("never", { CORRAL_GUARDIAN_BIN: bin.plain }), "process-group");
  assert.equal(pipe("auto", { CORRAL_GUARDIAN_BIN: "/nonexistent" }), "process-group");
  assert.throws(() => decideBackend("always", { CORRAL_GUARDIAN_BIN: "/nonexistent" }), GuardianUnavailableError);
  assert.throws(() => pipe("always", { CORRAL_GUARDIAN_BIN: "/nonexistent" }), /guardian: always, but/);
  assert.throws(() => pipe("auto", { CORRAL_GUARDIAN: "sometimes" }), /auto, always or never/);
  assert.ok(existsSync(bin.plain));
});
