// Under Deno, an installed copy (the bundle inside some prefix's
// node_modules, no deno.json) starts its agent with the flag that lets Deno
// load node-pty from the package's node_modules (lib/runtime/self-command.ts):
// without the guardian that is the agent's only PTY backend, so `pty open`
// exited 125 ("Import @lydell/node-pty not a dependency") before the fix.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";

test("deno: an installed bundle's agent has node-pty without the guardian", { timeout: 300_000 }, (t) => {
  const work = mkdtempSync(path.join(os.tmpdir(), "corral-deno-agent-"));
  // The layout `npm install -g --prefix P` makes: P/lib/node_modules/corral/{dist,package.json,node_modules}.
  const pkg = path.join(work, "lib", "node_modules", "corral");
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(repoRoot, "dist"), path.join(pkg, "dist"), { recursive: true });
  cpSync(path.join(repoRoot, "package.json"), path.join(pkg, "package.json"));
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(pkg, "node_modules"));
  const env = { ...process.env, CORRAL_STATE_DIR: path.join(work, "state"), CORRAL_GUARDIAN: "never" };
  const deno = path.join(repoRoot, "node_modules", ".bin", "deno");
  // How the README says to run an installed copy under Deno.
  const corral = (...args: string[]) =>
    spawnSync(deno, ["run", "--allow-all", "--quiet", "--node-modules-dir=manual", path.join(pkg, "dist", "corral.mjs"), ...args], {
      env,
      cwd: work,
      encoding: "utf8",
      timeout: 120_000,
    });
  t.after(() => {
    corral("agent", "stop", "--force");
    rmSync(work, { recursive: true, force: true });
  });

  const open = corral("pty", "open", "--name", "c", "--", "cat");
  assert.equal(open.status, 0, `pty open under deno: ${open.stdout}${open.stderr}`);
  const list = JSON.parse(corral("pty", "list", "--json").stdout) as { sessions: { name: string; alive: boolean }[] };
  assert.ok(list.sessions.some((s) => s.name === "c" && s.alive), JSON.stringify(list));
  const close = corral("pty", "close", "c");
  assert.equal(close.status, 0, close.stderr);
});
