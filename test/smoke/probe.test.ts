// `corral probe` under each runtime: it reports the guardian and its
// capabilities, a PTY backend, and exits 0 on this machine.
import { test } from "node:test";
import assert from "node:assert/strict";
import { corral, runtime } from "../support/corral-cli.ts";

test(`probe --json on ${runtime}: guardian, capabilities, PTY backend, status 0`, { timeout: 120_000 }, async () => {
  const r = await corral(["probe", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout.toString("utf8"));
  assert.equal(report.runtime.name, runtime);
  assert.equal(report.guardian.built, true, report.guardian.why);
  const names = report.guardian.capabilities.map((c: { name: string }) => c.name);
  assert.deepEqual(names, ["proc", "pidfd_open", "pidfd_send_signal", "pty", "subreaper", "splice"]);
  assert.equal(report.pty.backend, "guardian");
  assert.equal(report.ok, true);
});
