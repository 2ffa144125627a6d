// collect --live under each runtime: under the guardian, Node and Bun hand
// corral's own stdout/stderr down to it (as its fd 4 and 5) and it tees
// (native/capture.c); Deno's child_process does not pass descriptors past the
// third, so there they become the guardian's own fd 1 and 2. Either way both
// streams must go through, byte for byte, before the report (under Deno they
// were lost when the guardian was handed descriptors it never got).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
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

// The tee is the guardian's, not JavaScript's, on every runtime: the command's
// parent (the guardian) holds our stdout and stderr. On Deno it held /dev/null
// and a pipe of ours while corral teed in JavaScript (153 MiB for 1 GiB).
for (const [name, argv] of Object.entries(runtimes)) {
  test(`${name}: under the guardian, collect --live hands our stdout and stderr to the guardian`, { timeout: 300_000 }, (t) => {
    if (!existsSync(argv[0] as string)) return t.skip(`${argv[0]} is not installed`);
    if (!existsSync(path.join(repoRoot, "native", "build", "corral-guardian"))) return t.skip("the guardian is not built (no C compiler)");
    const dir = mkdtempSync(path.join(os.tmpdir(), "corral-live-fds-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const outFile = path.join(dir, "out");
    const errFile = path.join(dir, "err");
    const out = openSync(outFile, "w");
    const err = openSync(errFile, "w");
    try {
      // Which tee descriptors the guardian got: fd 4/5 where the runtime passes them, else 1/2 (Deno).
      const script = 'for fd in 1 2 4 5; do printf "%s=%s\\n" $fd "$(readlink /proc/$PPID/fd/$fd 2>/dev/null)"; done';
      const r = spawnSync(argv[0] as string, [...argv.slice(1), "collect", "--live", "--", "sh", "-c", script], {
        cwd: repoRoot,
        env: { ...quietEnv, CORRAL_STATE_DIR: dir, CORRAL_GUARDIAN: "always" },
        stdio: ["ignore", out, err],
        timeout: 240_000,
      });
      assert.equal(r.status, 0, `${name}: ${readFileSync(errFile, "utf8")}`);
    } finally {
      closeSync(out);
      closeSync(err);
    }
    const fds = Object.fromEntries(readFileSync(outFile, "utf8").trim().split("\n").map((l) => l.split("=") as [string, string]));
    const [teeOut, teeErr] = name === "deno" ? [fds["1"], fds["2"]] : [fds["4"], fds["5"]];
    assert.equal(teeOut, outFile, `${name}: the guardian's stdout tee is our stdout (${JSON.stringify(fds)})`);
    assert.equal(teeErr, errFile, `${name}: the guardian's stderr tee is our stderr (${JSON.stringify(fds)})`);
  });
}
