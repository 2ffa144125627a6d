// Deno's hot bundles (dist/hot/deno/, cli/hot/build.mjs) replace Node's
// costly built-in modules with stand-ins (cli/hot/deno-builtins/): the
// calls they answer themselves must answer as the real modules do, and the
// commands they are for (jobs, pty) must get through without loading the
// real ones, while a command that needs one (run spawns) still loads it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { agentFor } from "../support/jobs-fixture.ts";
import { scratchDir } from "../support/scratch-dir.ts";

const deno = path.join(repoRoot, "node_modules", ".bin", "deno");

test("under Deno, each call a stand-in answers itself answers as node:fs and node:process do", { skip: !existsSync(deno) && "deno is not installed" }, (t) => {
  const dir = scratchDir(t, "corral-deno-builtins-");
  const ran = spawnSync(deno, ["run", "--allow-all", "--quiet", path.join(repoRoot, "test", "support", "deno-builtins-check.ts"), dir], { encoding: "utf8", timeout: 120_000 });
  assert.equal(ran.stderr, "");
  const lines = ran.stdout.split("\n");
  assert.deepEqual(lines.slice(0, 2), ["text line", "bytes line"], "writeSync to stdout, text and a slice of bytes");
  assert.deepEqual(JSON.parse(lines[2]!), { failures: [] });
  assert.equal(ran.status, 7, "process.exitCode set through the stand-in is the exit status");
});

test("under Deno, jobs and pty commands load none of the deferred Node modules; run loads what it spawns with", { skip: !existsSync(deno) && "deno is not installed", timeout: 180_000 }, async (t) => {
  const agent = agentFor(t, "deno-builtins");
  await agent.ok(["pty", "open", "--name", "quiet", "--", "cat"]);
  const loads = path.join(agent.dir, "loads");
  const underDeno = (args: string[]) => {
    const argv = ["run", "--allow-all", "--quiet", "--node-modules-dir=manual", "--preload", path.join(repoRoot, "test", "support", "deno-builtin-loads.ts"), path.join(repoRoot, "dist", "corral.mjs"), ...args];
    const ran = spawnSync(deno, argv, { env: { ...process.env, ...agent.env, CORRAL_TEST_BUILTIN_LOADS: loads }, encoding: "utf8", timeout: 120_000 });
    const loaded = existsSync(loads) ? readFileSync(loads, "utf8").split("\n").filter(Boolean) : [];
    spawnSync("rm", ["-f", loads]);
    return { ...ran, loaded };
  };
  for (const args of [["jobs"], ["pty", "list"], ["pty", "send", "quiet", "hello", "--key", "Enter"], ["pty", "wait", "quiet", "--text", "hello", "--timeout", "60s"], ["pty", "screen", "quiet"], ["pty", "screen", "no-such"]]) {
    const fails = args[2] === "no-such";
    const ran = underDeno(args);
    const node = await agent.run(args);
    const what = `deno corral ${args.join(" ")}`;
    assert.equal(ran.status, fails ? 1 : 0, `${what}: exit status (${ran.stderr})`);
    assert.equal(node.code, ran.status, `corral ${args.join(" ")} under Node: the same exit status`);
    if (args[1] !== "send") assert.equal(ran.stdout, node.stdout.toString("utf8"), `${what}: stdout as under Node`);
    assert.equal(ran.stderr, node.stderr, `${what}: stderr as under Node`);
    assert.deepEqual(ran.loaded, [], `${what} loaded no deferred module`);
  }
  const run = underDeno(["run", "--", "sh", "-c", "echo ran"]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "ran\n");
  assert.ok(run.loaded.includes("node:child_process"), `run loads node:child_process when it spawns (${run.loaded.join(", ")})`);
});
