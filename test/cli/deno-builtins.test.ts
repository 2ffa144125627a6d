// Deno's hot bundles (dist/hot/deno/, cli/hot/build.mjs) replace Node's
// costly built-in modules with stand-ins (lib/runtime/deno/builtins/): the
// calls they answer themselves must answer as the real modules do, and the
// commands they are for (jobs, pty, run, collect) must get through without
// loading the real ones, nor touching the globals that load one (Buffer,
// the Node timers: test/support/deno-builtin-loads.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { agentFor } from "../support/jobs-fixture.ts";
import { isAlive } from "../support/processes.ts";
import { scratchDir } from "../support/scratch-dir.ts";
import { waitFor } from "../support/wait.ts";

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
  // A listener whose socket path is gone, as an agent whose state dir was
  // removed leaves: the agent check reads every listener on the machine, so
  // the test plants one rather than pass or fail by what else runs here.
  const gone = scratchDir(t, "corral-deno-gone-");
  const orphan = createServer();
  await new Promise<void>((resolve) => orphan.listen(path.join(gone, "agent.sock"), resolve));
  t.after(() => orphan.close());
  rmSync(gone, { recursive: true, force: true });
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
    // `pty list`'s AGE column may turn a second between the two runs.
    const comparable = (out: string) => args[1] === "list" ? out.replace(/ \d+[smhd] /g, " <age> ") : out;
    if (args[1] !== "send") assert.equal(comparable(ran.stdout), comparable(node.stdout.toString("utf8")), `${what}: stdout as under Node`);
    assert.equal(ran.stderr, node.stderr, `${what}: stderr as under Node`);
    assert.deepEqual(ran.loaded, [], `${what} loaded no deferred module`);
  }
  // run and collect start their guardian through Deno's own API (lib/runtime/deno/guardian-spawn.ts).
  for (const [args, status, stdout] of [
    [["run", "--", "sh", "-c", "echo ran; exit 3"], 3, "ran\n"],
    [["collect", "--", "sh", "-c", "echo collected"], 0, "collected\n"],
    [["collect", "--json", "--", "sh", "-c", "echo kept"], 0, null],
  ] as const) {
    const what = `deno corral ${args.join(" ")}`;
    const ran = underDeno([...args]);
    assert.equal(ran.status, status, `${what}: ${ran.stderr}`);
    if (stdout !== null) assert.equal(ran.stdout, stdout, what);
    else assert.equal((JSON.parse(ran.stdout) as { exit: { code: number } }).exit.code, 0, `${what}: ${ran.stdout}`);
    assert.deepEqual(ran.loaded, [], `${what} loaded no deferred module`);
  }
});

test("under Deno, run's hot bundle forwards SIGTERM to the tree and then dies of it, with the stand-in's signal handlers", { skip: !existsSync(deno) && "deno is not installed", timeout: 120_000 }, async (t) => {
  const dir = scratchDir(t, "corral-deno-signal-");
  const pidFile = path.join(dir, "pids");
  const child = spawn(deno, ["run", "--allow-all", "--quiet", "--node-modules-dir=manual", path.join(repoRoot, "dist", "corral.mjs"), "run", "--", "sh", "-c", 'sleep 300 & echo $! >> "$0"; echo $$ >> "$0"; wait', pidFile], {
    env: { ...process.env, CORRAL_STATE_DIR: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const pids = await waitFor(() => {
    const found = existsSync(pidFile) ? readFileSync(pidFile, "utf8").split("\n").filter(Boolean).map(Number) : [];
    return found.length >= 2 ? found : undefined;
  }, { timeoutMs: 60_000, what: "the tree's pid file" });
  child.kill("SIGTERM");
  assert.deepEqual(await ended, { code: null, signal: "SIGTERM" }, stderr);
  await waitFor(() => !pids.some(isAlive), { timeoutMs: 30_000, what: `the tree (${pids.join(", ")}) to be gone` });
});
