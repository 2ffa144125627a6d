// `corral probe`: the fallback when the guardian is missing, a state dir
// open to others, an agent answering on the socket, the text form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { tempDir } from "../../support/guardian-fixture.ts";
import { parseProbeOutput } from "../../../lib/supervise/guardian/capabilities.ts";

test("probe without a guardian: degraded (status 3), lists what is lost, falls back to node-pty", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const r = await corral(["probe", "--json"], { env: { CORRAL_GUARDIAN_BIN: path.join(dir, "missing"), CORRAL_STATE_DIR: path.join(dir, "state") } });
  assert.equal(r.code, 3, r.stderr);
  const report = JSON.parse(r.stdout.toString("utf8"));
  assert.equal(report.status, "degraded");
  assert.equal(report.ok, false);
  assert.equal(report.guardian.built, false);
  assert.match(report.guardian.why, /missing/);
  assert.deepEqual(report.lost.map((g: { name: string }) => g.name).sort(), ["escapee-kill", "exact-stop-continue", "exit-drain", "pid-reuse-safe-signals", "tty-jobs"]);
  assert.equal(report.pty.backend, "node-pty");
  assert.equal(report.pty.nodePty.loadable, true);
  assert.equal(report.stateDir.exists, false);
  const text = await corral(["probe"], { env: { CORRAL_GUARDIAN_BIN: path.join(dir, "missing"), CORRAL_STATE_DIR: path.join(dir, "state") } });
  assert.equal(text.code, 3, text.stderr);
  assert.match(text.stdout.toString("utf8"), /^degraded: corral works here without the guardian; lost:\n {2}tty-jobs /m);
});

test("probe reports a state dir open to others, and an agent answering on the socket", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const state = path.join(dir, "state");
  mkdirSync(state);
  chmodSync(state, 0o755);
  const socket = path.join(dir, "agent.sock");
  const server = net.createServer((c) => c.destroy());
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const r = await corral(["probe"], { env: { CORRAL_STATE_DIR: state, CORRAL_SOCKET: socket } });
  assert.equal(r.code, 0, r.stderr);
  const text = r.stdout.toString("utf8");
  assert.match(text, /^corral \S+ on node /);
  assert.match(text, new RegExp(`agent socket  ${socket} \\(an agent answers\\)`));
  assert.match(text, /state dir .*PROBLEM: .*mode 0755.*chmod 700/);
  assert.match(text, /pty backend {3}guardian/);
  assert.match(text, /^ok: /m);
  assert.doesNotMatch(text, /degraded|fix:/);
});

test("probe lines parse: name, ok|missing, core|optional, detail", { timeout: 120_000 }, () => {
  assert.deepEqual(parseProbeOutput("pty ok core a b\nsplice missing optional why not\nnoise\n"), [
    { name: "pty", ok: true, core: true, detail: "a b" },
    { name: "splice", ok: false, core: false, detail: "why not" },
  ]);
});

test("probe --json reports the backend decisions, with the reasons run and collect --explain print", { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const env = { CORRAL_GUARDIAN_BIN: path.join(dir, "missing"), CORRAL_STATE_DIR: path.join(dir, "state") };
  const r = await corral(["probe", "--json"], { env });
  assert.equal(r.code, 3, r.stderr);
  const { decisions } = JSON.parse(r.stdout.toString("utf8"));
  assert.equal(decisions.pipes.supervisor, "process-group");
  assert.equal(decisions.jobs.supervisor, "process-group");
  assert.equal(decisions.ptySessions.supervisor, "node-pty");
  assert.equal(decisions.ttyJobs.supervisor, null, "a terminal job needs the guardian");
  assert.match(decisions.ttyJobs.why, /^refused: --tty jobs need the guardian/);
  assert.equal(decisions.capture.keeper, "javascript");
  const ran = await corral(["collect", "--explain", "--", "true"], { env });
  assert.equal(ran.code, 0, ran.stderr);
  assert.ok(ran.stderr.includes(`corral: explain: output: ${decisions.capture.why}\n`), ran.stderr);
  assert.ok(ran.stderr.includes(`under ${decisions.pipes.why}\n`), ran.stderr);
  const never = JSON.parse((await corral(["probe", "--json"], { env: { CORRAL_STATE_DIR: path.join(dir, "state"), CORRAL_GUARDIAN: "never" } })).stdout.toString("utf8"));
  assert.equal(never.decisions.pipes.why, "process group (guardian: never)");
  assert.equal(never.pty.backend, never.decisions.ptySessions.supervisor, "the PTY backend probe names is the one the decision picks");
  const { pty } = JSON.parse(r.stdout.toString("utf8"));
  assert.equal(pty.backend, decisions.ptySessions.supervisor);
  const text = await corral(["probe"], { env });
  assert.match(text.stdout.toString("utf8"), /^run {11}process group \(no guardian: /m);
  assert.match(text.stdout.toString("utf8"), /^collect {7}JavaScript keeps the output/m);
});
