// The hottest commands have a bundle of their own in the built CLI
// (cli/hot/, issue 9 start-up): it must hold the very definitions the
// registry holds, for every name cli/main.ts sends it, and answer as the
// whole-table path does (help and usage errors compared byte for byte).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BUN_BYTECODE_BUNDLES, HOT_BUNDLES } from "../../cli/hot/bundles.ts";
import { COMMANDS } from "../../cli/registry.ts";
import type { CommandTarget } from "../../cli/route-map.ts";
import { corral, repoRoot } from "../support/corral-cli.ts";
import { corralInProcess } from "../support/corral-in-process.ts";

const bundles = [...new Set(Object.values(HOT_BUNDLES))];

async function targetsOf(bundle: string): Promise<Readonly<Record<string, CommandTarget>>> {
  return ((await import(`../../cli/hot/${bundle}.ts`)) as { TARGETS: Record<string, CommandTarget> }).TARGETS;
}

test("each name sent to a bundle is the registry's definition, and each bundle answers only its names", async () => {
  for (const [name, bundle] of Object.entries(HOT_BUNDLES)) {
    const loader = COMMANDS[name];
    assert.ok(loader, `${name} is in the registry`);
    assert.equal((await targetsOf(bundle))[name], await loader(), `${name}: the bundle ${bundle} holds the registry's definition`);
  }
  for (const bundle of bundles) {
    for (const name of Object.keys(await targetsOf(bundle))) {
      assert.equal(HOT_BUNDLES[name], bundle, `${name} (in cli/hot/${bundle}.ts) is sent to that bundle by cli/main.ts`);
    }
  }
});

test("Bun's copies of run and collect carry bytecode and answer as the plain bundles do", () => {
  for (const bundle of BUN_BYTECODE_BUNDLES) {
    const copy = path.join(repoRoot, "dist", "hot", `${bundle}.bun.cjs`);
    assert.ok(existsSync(`${copy}.jsc`), `${copy}.jsc is built (bun is a dev dependency)`);
    assert.match(readFileSync(copy, "utf8").slice(0, 100), /^\/\/ @bun @bytecode @bun-cjs\n/);
    // The build machine's paths must not be baked in (Bun's bundler writes them for __dirname and __filename).
    assert.doesNotMatch(readFileSync(copy, "utf8"), /corral-bun-build-/, `${copy} names the directory it was built in`);
  }
  assert.deepEqual(BUN_BYTECODE_BUNDLES.filter((bundle) => !Object.values(HOT_BUNDLES).includes(bundle)), [], "every bytecode bundle is a hot bundle");
  const build = readFileSync(path.join(repoRoot, "cli", "hot", "build.mjs"), "utf8");
  assert.ok(build.includes(`const BUN_BYTECODE_BUNDLES = ${JSON.stringify(BUN_BYTECODE_BUNDLES).replaceAll(",", ", ")};`), "cli/hot/build.mjs builds the bundles cli/hot/bundles.ts names");
});

test("the build holds one file per bundle", () => {
  for (const bundle of bundles) {
    for (const file of [path.join(repoRoot, "dist", "hot", `${bundle}.cjs`), path.join(repoRoot, "dist", "hot", "deno", `${bundle}.mjs`)]) {
      assert.ok(existsSync(file), `${file} exists (npm run build:ts)`);
    }
  }
});

test("through its bundle, each hot command answers help and a bad flag as the whole table does", { timeout: 300_000 }, async () => {
  for (const name of Object.keys(HOT_BUNDLES)) {
    for (const args of [[name, "--help"], [name, "--no-such-flag"]]) {
      const built = await corral(args);
      const table = await corralInProcess(args);
      const what = `corral ${args.join(" ")}`;
      assert.equal(built.code, table.code, `${what}: exit status`);
      assert.equal(built.stdout.toString("utf8"), table.stdout.toString("utf8"), `${what}: stdout`);
      assert.equal(built.stderr, table.stderr, `${what}: stderr`);
    }
  }
});

// The YAML reader and the regex engine are files of their own beside the
// bundles (cli/hot/build.mjs): their errors must still be usage errors.
test("through the bundles, a bad config file and a bad --regex are still usage errors (2)", { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-hot-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = path.join(dir, "config.yaml");
  writeFileSync(config, "nonsense: 3\n");
  for (const args of [["run", "--", "true"], ["collect", "--", "true"]]) {
    const result = await corral(args, { env: { CORRAL_CONFIG: config, CORRAL_STATE_DIR: dir } });
    assert.equal(result.code, 2, `corral ${args.join(" ")} with a bad config: ${result.stderr}`);
    assert.match(result.stderr, /config\.yaml:1: nonsense: unknown key/);
  }
  const regex = await corral(["pty", "wait", "no-such-session", "--regex", "("], { env: { CORRAL_STATE_DIR: dir } });
  assert.equal(regex.code, 2, `pty wait --regex "(": ${regex.stderr}`);
  assert.match(regex.stderr, /not a valid RE2 regular expression/);
});

// An installed copy under Deno or Bun runs dist/corral.mjs (README
// "Installing"): Bun requires the same CommonJS bundles Node's entry starts
// from its code cache, Deno imports its own ES module builds of them
// (dist/hot/deno/); the lazily loaded YAML reader included.
test("Deno and Bun run the shipped bundle's hot commands, lazy parts included", { timeout: 300_000 }, (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-hot-runtimes-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = path.join(repoRoot, "dist", "corral.mjs");
  const devBin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
  const config = path.join(dir, "config.yaml");
  writeFileSync(config, "nonsense: 3\n");
  for (const argv of [[devBin("deno"), "run", "--allow-all", "--quiet", "--node-modules-dir=manual", bundle], [devBin("bun"), bundle]]) {
    const name = path.basename(argv[0]!);
    if (!existsSync(argv[0]!)) {
      t.diagnostic(`${name} is not installed`);
      continue;
    }
    const env = { ...process.env, CORRAL_STATE_DIR: dir, CORRAL_CONFIG: undefined };
    const ran = spawnSync(argv[0]!, [...argv.slice(1), "run", "--", "sh", "-c", "echo out; exit 3"], { env, encoding: "utf8", timeout: 120_000 });
    assert.equal(ran.status, 3, `${name} run: ${ran.stderr}`);
    assert.equal(ran.stdout, "out\n", `${name} run`);
    const collected = spawnSync(argv[0]!, [...argv.slice(1), "collect", "--", "seq", "1", "3"], { env, encoding: "utf8", timeout: 120_000 });
    assert.equal(collected.status, 0, `${name} collect: ${collected.stderr}`);
    assert.equal(collected.stdout, "1\n2\n3\n", `${name} collect`);
    const bad = spawnSync(argv[0]!, [...argv.slice(1), "run", "--", "true"], { env: { ...env, CORRAL_CONFIG: config }, encoding: "utf8", timeout: 120_000 });
    assert.equal(bad.status, 2, `${name} with a bad config: ${bad.stderr}`);
    assert.match(bad.stderr, /config\.yaml:1: nonsense: unknown key/, name);
  }
});

// dist/corral.mjs (cli/main.ts) is built on its own, without `node:`
// imports up front: under Deno and Bun it answers `--version` itself and
// reaches a hot bundle or the command table (dist/corral-app.mjs) by
// import(); under Node it hands over to dist/corral.cjs. Every way must
// answer as the whole-table path does.
test("dist/corral.mjs under Node, Deno and Bun answers --version, a hot command and the table as the table does", { timeout: 300_000 }, async (t) => {
  const bundle = path.join(repoRoot, "dist", "corral.mjs");
  const devBin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);
  const entries = [[process.execPath, bundle], [devBin("deno"), "run", "--allow-all", "--quiet", "--node-modules-dir=manual", bundle], [devBin("bun"), bundle]];
  const cases = [["--version"], ["jobs", "--help"], ["probe", "--help"], ["probe", "--no-such-flag"]];
  const expected = await Promise.all(cases.map((args) => corralInProcess(args)));
  for (const argv of entries) {
    const name = path.basename(argv[0]!);
    if (!existsSync(argv[0]!)) {
      t.diagnostic(`${name} is not installed`);
      continue;
    }
    cases.forEach((args, i) => {
      const what = `${name} dist/corral.mjs ${args.join(" ")}`;
      const ran = spawnSync(argv[0]!, [...argv.slice(1), ...args], { encoding: "utf8", timeout: 120_000 });
      assert.equal(ran.status, expected[i]!.code, `${what}: exit status (${ran.stderr})`);
      assert.equal(ran.stdout, expected[i]!.stdout.toString("utf8"), `${what}: stdout`);
      assert.equal(ran.stderr, expected[i]!.stderr, `${what}: stderr`);
    });
  }
});
