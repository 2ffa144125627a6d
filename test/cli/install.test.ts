// As a new user installs corral (README "Install"): the package is packed
// once (what `npm publish` would upload), then installed from the tarball
// into private prefixes with `npm install -g --prefix`, and used from that
// PATH, or into a project as a dependency and run with `npx corral`: the
// guardian is in use with no extra command; with --ignore-scripts the first
// command that needs it builds it; with no C compiler on PATH the install
// still succeeds and `probe` says degraded (status 3) with the absolute fix.
// (A git dependency installs through `prepare`: test/cli/install-git-dependency.test.ts,
// a file of its own so the suite runs it beside this one.)
// Runtime dependencies come from npm's cache (--prefer-offline: `npm ci`
// filled it). Slow (installs, compiles), so the cases share one tarball.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { cleanEnv } from "../support/npm-env.ts";
import { waitFor } from "../support/wait.ts";
import { ptyRound } from "../support/pty-round.ts";

const work = mkdtempSync(path.join(tmpdir(), "corral-install-"));
let tarball = "";
/** What `npm pack` reported putting in the tarball. */
let packedFiles: string[] = [];

interface Installed {
  readonly prefix: string;
  readonly bin: string;
  readonly env: Record<string, string>;
  readonly npm: { status: number | null; output: string };
}

/** `npm install -g --prefix` of the tarball; `env` gets PATH with the prefix's bin first and private state and cache dirs. */
function install(name: string, npmArgs: readonly string[], pathDirs: string = process.env.PATH ?? ""): Installed {
  const prefix = path.join(work, name);
  const npm = spawnSync("npm", ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", ...npmArgs, tarball], {
    env: cleanEnv({ PATH: pathDirs }),
    encoding: "utf8",
    timeout: 600_000,
  });
  return user({ prefix, bin: path.join(prefix, "bin", "corral"), env: {}, npm: { status: npm.status, output: `${npm.stdout}${npm.stderr}${npm.error ?? ""}` } }, name, pathDirs);
}

/** The same installed copy as a user of its own: private state and cache dirs named `name`. */
function user(it: Installed, name: string, pathDirs: string = process.env.PATH ?? ""): Installed {
  const env = cleanEnv({
    PATH: `${path.join(it.prefix, "bin")}:${pathDirs}`,
    CORRAL_STATE_DIR: path.join(work, `${name}-state`),
    CORRAL_CACHE_DIR: path.join(work, `${name}-cache`),
  });
  return { ...it, env };
}

// The --ignore-scripts cases build the guardian into their user's cache,
// never into the prefix: they share one install (an npm install is seconds of CPU).
let ignoredScripts: Installed | undefined;
function installedIgnoringScripts(): Installed {
  ignoredScripts ??= install("ignored", ["--ignore-scripts"]);
  return ignoredScripts;
}

function corralIn(where: Installed, args: readonly string[]) {
  const r = spawnSync("corral", args, { env: where.env, encoding: "utf8", timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Stops the agent an installed copy started, so nothing outlives the test. */
function stopAgent(where: Installed): void {
  spawnSync("corral", ["agent", "stop", "--force"], { env: where.env, timeout: 60_000 });
}

before(() => {
  // --ignore-scripts: dist/ is already built by the suite, and `prepare` would rebuild it under running tests.
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: repoRoot, env: cleanEnv({}), encoding: "utf8" });
  const packed = (JSON.parse(out) as { filename: string; files: { path: string }[] }[])[0]!;
  tarball = path.join(work, packed.filename);
  packedFiles = packed.files.map((f) => f.path);
});

after(() => rmSync(work, { recursive: true, force: true }));

test("the package holds what runs and builds, and no tests, CI files, sources or node_modules", { timeout: 120_000 }, () => {
  // The list of the pack the other cases install (a second `npm pack --dry-run` cost seconds of CPU).
  const files = packedFiles;
  assert.ok(files.length > 0, "npm pack listed the files");
  for (const wanted of ["package.json", "README.md", "LICENSE", "dist/corral.mjs", "dist/corral.cjs", "dist/hot/run.cjs", "dist/hot/deno/run.mjs", "dist/hot/deno/lazy/from-yaml.mjs", "dist/install.mjs", "dist/view/xterm.js", "dist/view/xterm.css", "native/Makefile", "native/install.mjs", "native/main.c", "native/guardian.h", "native/job-shim.c", "native/client/corral-client.c", "dist/corral", "completions/corral.bash"]) {
    assert.ok(files.includes(wanted), `${wanted} is missing from the package`);
  }
  if (existsSync(path.join(repoRoot, "schemas"))) assert.ok(files.some((f) => f.startsWith("schemas/")), "schemas/ is missing from the package");
  const stray = files.filter((f) => /^(test|\.ci|cli|lib|node_modules)\/|node_modules\/|^tsconfig\.json$|^deno\.json$|^native\/build\//.test(f));
  assert.deepEqual(stray, []);
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  // Everything else is bundled into dist/ (xterm.js's two browser files that
  // `pty view` serves are copied into dist/view/); node-pty is a native addon
  // esbuild leaves external.
  assert.deepEqual(Object.keys(manifest.dependencies), ["@lydell/node-pty"]);
});

test("npm install -g of the tarball: the guardian is in use; run --tty in a real terminal; pty open/send/wait/close", { timeout: 900_000 }, async (t) => {
  const it = install("global", []);
  assert.equal(it.npm.status, 0, it.npm.output);
  t.after(() => stopAgent(it));
  const probe = corralIn(it, ["probe", "--json"]);
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  const report = JSON.parse(probe.stdout);
  assert.equal(report.status, "ok");
  assert.equal(report.guardian.source, "package");
  assert.equal(realpathSync(report.guardian.path), realpathSync(path.join(it.prefix, "lib", "node_modules", "corral", "native", "build", "corral-guardian")));
  assert.equal(report.pty.backend, "guardian");
  // The bin is this machine's native client, built by the install script.
  assert.equal(report.client.native, true, JSON.stringify(report.client));
  // Deno and Bun run the same shipped bundle (README "Installing").
  const bundle = path.join(it.prefix, "lib", "node_modules", "corral", "dist", "corral.mjs");
  const devBin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
  for (const [name, argv] of [["bun", [devBin("bun"), bundle]], ["deno", [devBin("deno"), "run", "--allow-all", "--quiet", "--node-modules-dir=manual", bundle]]] as const) {
    const r = spawnSync(argv[0], [...argv.slice(1), "probe", "--json"], { env: it.env, encoding: "utf8", timeout: 300_000 });
    assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
    const seen = JSON.parse(r.stdout);
    assert.equal(seen.runtime.name, name);
    assert.equal(seen.guardian.source, "package");
    // run and collect under Bun come from their bytecode copies (dist/hot/*.bun.cjs), built elsewhere: they must
    // still find the guardian of the copy they run from.
    const explained = spawnSync(argv[0], [...argv.slice(1), "run", "--explain", "--", "true"], { env: it.env, encoding: "utf8", timeout: 300_000 });
    assert.equal(explained.status, 0, `${name} run: ${explained.stderr}`);
    const guardian = path.join(it.prefix, "lib", "node_modules", "corral", "native", "build", "corral-guardian");
    assert.match(explained.stderr, new RegExp(`under guardian (${guardian}|${realpathSync(guardian)})\n`), `${name} run --explain`);
  }

  ptyRound((args) => corralIn(it, args), "global install");

  // run --tty needs a terminal: a private tmux server runs it and writes the status to a file.
  const socket = path.join(work, "tmux.sock");
  const done = path.join(work, "tty-status");
  const tmux = (...args: string[]) => execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env: it.env, encoding: "utf8" });
  t.after(() => spawnSync("tmux", ["-S", socket, "kill-server"]));
  const script = `corral run --tty -- sh -c 'test -t 0 && test -t 1 && echo child-on-a-tty'; echo "$?" > ${done}.tmp && mv ${done}.tmp ${done}; exec sleep 600`;
  tmux("new-session", "-d", "-x", "80", "-y", "24", "sh", "-c", script);
  const status = await waitFor(() => (existsSync(done) ? readFileSync(done, "utf8").trim() : undefined), { what: "run --tty to finish in tmux", timeoutMs: 120_000 });
  assert.equal(status, "0", tmux("capture-pane", "-p"));
  assert.match(tmux("capture-pane", "-p"), /^child-on-a-tty$/m);
});

test("a project's dependency from the tarball: npx corral probes and lists, the project's bin drives a session; pty view serves xterm.js with no @xterm/xterm installed", { timeout: 900_000 }, async (t) => {
  const project = path.join(work, "project");
  mkdirSync(project);
  const npm = (args: readonly string[]) => spawnSync("npm", args, { cwd: project, env: cleanEnv({}), encoding: "utf8", timeout: 600_000 });
  const init = npm(["init", "-y"]);
  assert.equal(init.status, 0, init.stderr);
  const add = npm(["install", "--save-dev", "--prefer-offline", "--no-audit", "--no-fund", tarball]);
  assert.equal(add.status, 0, add.stdout + add.stderr);
  assert.deepEqual(readdirSync(path.join(project, "node_modules")).filter((d) => !d.startsWith(".")).sort(), ["@lydell", "corral"], "the install pulls node-pty only");
  const env = cleanEnv({ CORRAL_STATE_DIR: path.join(work, "project-state"), CORRAL_CACHE_DIR: path.join(work, "project-cache") });
  const npx = (args: readonly string[]) => {
    const r = spawnSync("npx", ["corral", ...args], { cwd: project, env, encoding: "utf8", timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  // What npx runs once it has found the package: the round below goes to it directly
  // (each npx call starts npm first, about half a second of CPU).
  const bin = path.join(project, "node_modules", ".bin", "corral");
  const projectBin = (args: readonly string[]) => {
    const r = spawnSync(bin, args, { cwd: project, env, encoding: "utf8", timeout: 300_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  t.after(() => projectBin(["agent", "stop", "--force"]));
  const probe = npx(["probe", "--json"]);
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.equal(JSON.parse(probe.stdout).guardian.source, "package");
  assert.equal(npx(["pty", "list"]).code, 0, "npx corral pty list");
  ptyRound(projectBin, "the project's corral");

  // pty view serves xterm.js from the package's own dist/view/.
  assert.equal(spawnSync(bin, ["pty", "open", "--name", "viewed", "--", "cat"], { env, encoding: "utf8" }).status, 0);
  const view = spawn(bin, ["pty", "view", "viewed"], { env, stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => view.kill("SIGINT"));
  let printed = "";
  view.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  const url = await waitFor(() => /http:\/\/\S+\//.exec(printed)?.[0], { what: "pty view to print its URL", timeoutMs: 120_000 });
  const served = await fetch(`${url}xterm.js`);
  assert.equal(served.status, 200);
  assert.match(await served.text(), /Terminal/);
  view.kill("SIGINT");
  await new Promise((resolve) => view.once("exit", resolve));
});

test("--ignore-scripts: the first command that needs the guardian builds it, once, into the per-user cache", { timeout: 900_000 }, (t) => {
  const it = user(installedIgnoringScripts(), "ignored");
  assert.equal(it.npm.status, 0, it.npm.output);
  t.after(() => stopAgent(it));
  assert.equal(existsSync(path.join(it.prefix, "lib", "node_modules", "corral", "native", "build")), false);
  const run = corralIn(it, ["run", "--", "sh", "-c", "echo ran"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "ran\n");
  assert.match(run.stderr, /^corral: building the guardian into \S+ \(once; npm's install script did not build it\)$/m);
  const probe = corralIn(it, ["probe", "--json"]);
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.equal(probe.stderr, "", "built once");
  const after = JSON.parse(probe.stdout);
  assert.equal(after.status, "ok");
  assert.equal(after.guardian.source, "cache");
  assert.ok(after.guardian.path.startsWith(it.env.CORRAL_CACHE_DIR), after.guardian.path);
});

test("--ignore-scripts, then probe first: probe builds it too (no extra command)", { timeout: 900_000 }, (t) => {
  const it = user(installedIgnoringScripts(), "ignored-probe");
  assert.equal(it.npm.status, 0, it.npm.output);
  t.after(() => stopAgent(it));
  const probe = corralIn(it, ["probe", "--json"]);
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.match(probe.stderr, /^corral: building the guardian into /m);
  assert.equal(JSON.parse(probe.stdout).guardian.source, "cache");
});

test("no C compiler on PATH: the install succeeds, probe says degraded (status 3), lists what is lost and the fix", { timeout: 900_000 }, (t) => {
  // A PATH with only what npm and corral themselves need: node, npm, sh (no cc, gcc, clang, make).
  const bin = path.join(work, "no-cc-bin");
  mkdirSync(bin);
  for (const tool of ["node", "npm", "sh"]) {
    const found = execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    symlinkSync(realpathSync(found), path.join(bin, tool));
  }
  const it = install("no-cc", ["--foreground-scripts"], bin);
  assert.equal(it.npm.status, 0, it.npm.output);
  t.after(() => stopAgent(it));
  assert.match(it.npm.output, /corral: the guardian was not built \(no C compiler found .*\); corral works without it/);
  const probe = corralIn(it, ["probe"]);
  assert.equal(probe.code, 3, probe.stdout + probe.stderr);
  assert.match(probe.stdout, /^degraded: corral works here without the guardian; lost:$/m);
  for (const name of ["tty-jobs", "escapee-kill", "exit-drain"]) assert.match(probe.stdout, new RegExp(`^ {2}${name} `, "m"));
  assert.match(probe.stdout, new RegExp(`^fix: /\\S+ ${it.bin} probe --build$`, "m"));
  assert.match(probe.stdout, /needs a C compiler on PATH first/);
  // No native client either: the bin is a link to the JavaScript CLI, and probe says so.
  assert.match(it.npm.output, /corral: the native client was not built \(no C compiler found/);
  assert.match(probe.stdout, /^client +JavaScript +every command starts the JavaScript CLI/m);
  // Everything else still runs, on the fallbacks, and nothing is built behind the user's back.
  const run = corralIn(it, ["run", "--", "sh", "-c", "exit 7"]);
  assert.equal(run.code, 7, run.stderr);
  // (The cache dir holds the hot commands' code cache, README "Start-up"; no guardian build.)
  const cached = existsSync(it.env.CORRAL_CACHE_DIR!) ? readdirSync(it.env.CORRAL_CACHE_DIR!) : [];
  assert.deepEqual(cached.filter((name) => name !== "code-cache"), []);
});
