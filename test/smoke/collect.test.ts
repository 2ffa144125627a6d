// `corral collect` under the runtime under test (Node, Deno, Bun).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral, runtime } from "../support/corral-cli.ts";
import { isAlive } from "../support/processes.ts";

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

// Each backend: the guardian when it is built (the default), and the pure
// JavaScript process-group backend ($CORRAL_GUARDIAN=never), on every runtime.
for (const [backend, env] of [
  ["default backend", {}],
  ["process-group backend", { CORRAL_GUARDIAN: "never" }],
] as const) {
  test(`collect keeps head and tail, spills byte-exact, under ${runtime}, ${backend}`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "corral-smoke-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // No line feeds, so the byte limits cut exactly where they say (a cut moves to a line end otherwise).
    const data = randomBytes(2 * 1024 * 1024).map((b) => (b === 10 ? 11 : b));
    writeFileSync(path.join(dir, "data"), data);
    const spill = path.join(dir, "spill");
    const result = await corral(["collect", "--head-bytes", "100", "--max-bytes", "200", "--spill", spill, "--", "cat", path.join(dir, "data")], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(sha256(readFileSync(`${spill}.stdout`)), sha256(data));
    const counts = `(of 1 lines, ${data.length} bytes; head cut by --head-bytes, tail by --max-bytes)`;
    const marker = Buffer.from(`\n[corral: 0 lines, ${data.length - 300} bytes elided ${counts}; full output in ${spill}.stdout]\n`);
    const expected = Buffer.concat([data.subarray(0, 100), marker, data.subarray(data.length - 200)]);
    assert.deepEqual(result.stdout, expected);
  });

  test(`collect --json: a grandchild holding the pipe does not hang, under ${runtime}, ${backend}`, async () => {
    const result = await corral(["collect", "--json", "--grace", "500ms", "--", "sh", "-c", "sleep 600 & echo $!; echo hi; exit 4"], { env });
    assert.equal(result.code, 4, result.stderr);
    const report = JSON.parse(result.stdout.toString()) as {
      exit: { code: number; outputComplete: boolean };
      stdout: { head: string };
    };
    assert.equal(report.exit.code, 4);
    assert.equal(report.exit.outputComplete, false);
    const [pid, hi] = report.stdout.head.trim().split("\n");
    assert.equal(hi, "hi");
    assert.equal(isAlive(Number(pid)), false);
  });
}
