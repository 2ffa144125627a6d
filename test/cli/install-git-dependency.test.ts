// A git dependency of a project (README "Install"): npm clones the
// repository, runs `prepare` (which bundles dist/), then the install script
// builds the guardian; the project runs it as `npx corral` (probe) and its bin: one
// terminal session. Its own file (the slowest install, about 100 s) so the suite
// runs it beside test/cli/install.test.ts instead of after it.
// Runtime dependencies come from npm's cache (--prefer-offline: `npm ci` filled it).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { cleanEnv } from "../support/npm-env.ts";
import { ptyRound } from "../support/pty-round.ts";

const work = mkdtempSync(path.join(tmpdir(), "corral-install-git-"));
after(() => rmSync(work, { recursive: true, force: true }));

test("a git dependency of a project: prepare bundles it, the install script builds the guardian", { timeout: 900_000 }, (t) => {
  // npm clones the committed HEAD: this checks what is committed, not the working tree.
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot, encoding: "utf8" });
  if (head.status !== 0) {
    t.skip(`not a git checkout (${head.stderr.trim() || head.error?.message}): nothing for npm to clone`);
    return;
  }
  const project = path.join(work, "git-project");
  mkdirSync(project);
  const npm = spawnSync("npm", ["init", "-y"], { cwd: project, env: cleanEnv({}), encoding: "utf8" });
  assert.equal(npm.status, 0, npm.stderr);
  const add = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `git+file://${repoRoot}#${head.stdout.trim()}`], {
    cwd: project,
    env: cleanEnv({}),
    encoding: "utf8",
    timeout: 600_000,
  });
  assert.equal(add.status, 0, add.stdout + add.stderr);
  const installed = path.join(project, "node_modules", "corral");
  assert.equal(existsSync(path.join(installed, "native", "build", "corral-guardian")), true, "the install script built the guardian");
  const env = cleanEnv({ CORRAL_STATE_DIR: path.join(work, "git-state"), CORRAL_CACHE_DIR: path.join(work, "git-cache") });
  // As the README says to run it in a project: npx corral.
  const npx = (args: readonly string[]) => {
    const r = spawnSync("npx", ["corral", ...args], { cwd: project, env, encoding: "utf8", timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  // What npx runs once it has found the package: the round goes to it directly
  // (each npx call starts npm first, about half a second of CPU).
  const bin = path.join(installed, "..", ".bin", "corral");
  const projectBin = (args: readonly string[]) => {
    const r = spawnSync(bin, args, { cwd: project, env, encoding: "utf8", timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  t.after(() => projectBin(["agent", "stop", "--force"]));
  const probe = npx(["probe", "--json"]);
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.equal(JSON.parse(probe.stdout).guardian.source, "package");
  ptyRound(projectBin, "a git dependency");
});
