// The build on first need (lib/supervise/guardian/build.ts), on a copy of the
// package without native/build (what `npm install --ignore-scripts` leaves):
// concurrent first calls build once under the lock and all get the guardian;
// nothing half-written is left; a failed compile is remembered, not retried
// on every call, and `probe --build` retries it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";
import { tempDir } from "../../support/guardian-fixture.ts";

/** A copy of the package as npm would install it, minus native/build. */
function packageCopy(dir: string): string {
  const root = path.join(dir, "corral");
  mkdirSync(path.join(root, "native"), { recursive: true });
  cpSync(path.join(repoRoot, "dist"), path.join(root, "dist"), { recursive: true });
  cpSync(path.join(repoRoot, "package.json"), path.join(root, "package.json"));
  for (const file of readdirSync(path.join(repoRoot, "native"))) {
    if (/\.(c|h)$/.test(file)) cpSync(path.join(repoRoot, "native", file), path.join(root, "native", file));
  }
  symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  return root;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("CORRAL_")) env[k] = v;
  return { ...env, ...extra };
}

function corralAt(root: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(root, "dist", "corral.mjs"), ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

test("three concurrent first calls: one build under the lock, every call gets the guardian, nothing half-written left", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const root = packageCopy(dir);
  const cache = path.join(dir, "cache");
  const env = cleanEnv({ CORRAL_CACHE_DIR: cache, CORRAL_STATE_DIR: path.join(dir, "state") });
  const runs = await Promise.all([1, 2, 3].map((n) => corralAt(root, ["run", "--explain", "--", "sh", "-c", `exit ${n}`], env)));
  runs.forEach((r, i) => assert.equal(r.code, i + 1, r.stderr));
  const builds = runs.filter((r) => /^corral: building the guardian into /m.test(r.stderr));
  assert.equal(builds.length, 1, runs.map((r) => r.stderr).join("\n---\n"));
  for (const r of runs) assert.match(r.stderr, new RegExp(`guardian ${cache.replaceAll("/", "\\/")}/guardian-[0-9a-f]{16}/corral-guardian`), "every call ran under the guardian");
  // code-cache/: the hot commands' compiled code (README "Start-up"), not part of the build.
  const [entry, ...others] = readdirSync(cache).filter((name) => name !== "code-cache");
  assert.deepEqual(others, [], "no lock or failure marker left");
  assert.deepEqual(readdirSync(path.join(cache, entry!)).sort(), ["corral-guardian", "corral-job-shim"], "no temporary files left");
});

test("a failed compile is remembered (no retry on every call); probe names it, --build retries", { timeout: 300_000 }, async (t) => {
  const dir = tempDir(t);
  const root = packageCopy(dir);
  appendFileSync(path.join(root, "native", "main.c"), "\nthis is not C;\n");
  const cache = path.join(dir, "cache");
  const env = cleanEnv({ CORRAL_CACHE_DIR: cache, CORRAL_STATE_DIR: path.join(dir, "state") });
  const first = await corralAt(root, ["run", "--", "true"], env);
  assert.equal(first.code, 0, "run falls back to the process group");
  assert.match(first.stderr, /^corral: building the guardian into /m);
  assert.equal(readdirSync(cache).filter((f) => f.endsWith(".failed")).length, 1);
  const second = await corralAt(root, ["run", "--", "true"], env);
  assert.equal(second.code, 0);
  assert.equal(second.stderr, "", "not retried");
  const probe = await corralAt(root, ["probe", "--json"], env);
  assert.equal(probe.code, 3, probe.stderr);
  const report = JSON.parse(probe.stdout);
  assert.match(report.guardian.why, /failed to build corral-guardian/);
  assert.match(report.fix, /corral\.mjs probe --build$/);
  const retry = await corralAt(root, ["probe", "--build"], env);
  assert.equal(retry.code, 3);
  assert.match(retry.stderr, /^corral: the guardian was not built: .*failed to build corral-guardian/m);
  assert.equal(existsSync(path.join(root, "native", "build", "corral-guardian")), false);
});
