// collect --live under each runtime: under the guardian, Node and Bun hand
// corral's own stdout/stderr down to it and it tees (native/capture.c);
// Deno's child_process does not pass descriptors past the third, so there
// corral tees in JavaScript. Either way both streams must go through, byte
// for byte, before the report (under Deno they were lost when the guardian
// was handed descriptors it never got).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";

const bin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
const runtimes: Record<string, string[]> = {
  node: [process.execPath, path.join(repoRoot, "dist", "corral.mjs")],
  bun: [bin("bun"), path.join(repoRoot, "cli", "main.ts")],
  deno: [bin("deno"), "run", "--allow-all", "--quiet", path.join(repoRoot, "cli", "main.ts")],
};
// Without CI variables: a heartbeat would add lines to stderr.
const { CI: _ci, GITHUB_ACTIONS: _gh, GITLAB_CI: _gl, ...quietEnv } = process.env;
const seq = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\n`).join("");

for (const [name, argv] of Object.entries(runtimes)) {
  test(`${name}: collect --live passes stdout and stderr through, then the report`, { timeout: 300_000 }, (t) => {
    // The runtimes are dev dependencies (npm ci installs them): absent only when installed without them.
    if (!existsSync(argv[0] as string)) return t.skip(`${argv[0]} is not installed`);
    const state = mkdtempSync(path.join(os.tmpdir(), "corral-live-runtimes-"));
    t.after(() => rmSync(state, { recursive: true, force: true }));
    for (const backend of ["auto", "never"]) {
      const r = spawnSync(argv[0] as string, [...argv.slice(1), "collect", "--live", "--", "sh", "-c", "seq 1 20000; seq 1 100 >&2"], {
        cwd: repoRoot,
        env: { ...quietEnv, CORRAL_STATE_DIR: state, CORRAL_GUARDIAN: backend },
        encoding: "utf8",
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      assert.equal(r.status, 0, `${name}/${backend}: ${r.stderr}`);
      assert.equal(r.stdout, seq(20000), `${name}/${backend}: stdout goes through`);
      assert.ok(r.stderr.startsWith(seq(100)), `${name}/${backend}: stderr goes through first: ${r.stderr.slice(0, 200)}`);
      assert.match(r.stderr, /\[corral: stdout: 108894 bytes, 20000 lines\]\n\[corral: stderr: 292 bytes, 100 lines\]\n$/, `${name}/${backend}: the report`);
    }
  });
}
