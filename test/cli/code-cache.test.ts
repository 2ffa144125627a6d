// Node's entry starts the hot bundles from V8's code cache, kept per user
// (cli/hot/load-bundle.ts). Code-cache data is code, so the cache must be
// written only where no one else can write, never taken from anywhere else,
// tied to the bundle as built, and never in the way of the command itself.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { scratchDir } from "../support/scratch-dir.ts";

const entry = path.join(repoRoot, "dist", "corral.cjs");
// <bundle>-<8 hex digits of the bundle's path>-node<version>-<arch>.v8
const cacheNamePattern = new RegExp(`^run-[0-9a-f]{8}-node${process.versions.node.replaceAll(".", "\\.")}-${process.arch}\\.v8$`);

/** The run bundle's cache file in `dir`, which must be there. */
function cacheFileIn(dir: string): string {
  const names = readdirSync(dir).filter((name) => cacheNamePattern.test(name));
  assert.equal(names.length, 1, `one cache of the run bundle in ${dir} (found: ${readdirSync(dir).join(", ")})`);
  return path.join(dir, names[0]!);
}
const MAGIC = "corral-code-cache 1\n";

/** `corral run -- echo ran` through Node's entry, with the per-user cache dir at `cacheDir`. */
function runWithCache(cacheDir: string): void {
  const r = spawnSync(process.execPath, [entry, "run", "--", "echo", "ran"], {
    env: { ...process.env, CORRAL_CACHE_DIR: cacheDir, NODE_DISABLE_COMPILE_CACHE: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "ran\n");
  assert.equal(r.stderr, "", "the cache never speaks");
}

/** The identity of a file: a rewrite renames a new file into place, so the inode changes. */
function identity(file: string): string {
  const info = statSync(file, { bigint: true });
  return `${info.ino}:${info.mtimeNs}`;
}

test("the first run writes the cache, private to the user; the next run takes it as it is", { timeout: 240_000 }, (t) => {
  const home = scratchDir(t, "corral-code-cache-");
  runWithCache(home);
  const dir = path.join(home, "code-cache");
  const file = cacheFileIn(dir);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const text = readFileSync(file).toString("latin1");
  assert.ok(text.startsWith(MAGIC), "format line first");
  const bundle = statSync(path.join(repoRoot, "dist", "hot", "run.cjs"), { bigint: true });
  assert.ok(text.slice(MAGIC.length).startsWith(`${bundle.dev}:${bundle.ino}:${bundle.size}:${bundle.mtimeNs}:${process.version}\n`), "keyed to the bundle as built");
  const before = identity(file);
  // Had V8 rejected it, the entry would write it again at exit.
  runWithCache(home);
  assert.equal(identity(file), before, "a cache V8 accepts is not rewritten");
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".tmp")), [], "no temporary file left");
});

test("a cache made for another build, or that V8 rejects, is replaced by one for this build", { timeout: 240_000 }, (t) => {
  const home = scratchDir(t, "corral-code-cache-");
  runWithCache(home);
  const file = cacheFileIn(path.join(home, "code-cache"));
  const good = readFileSync(file);
  const headerEnd = good.indexOf(0x0a, MAGIC.length) + 1;
  // Same data, key of a bundle with another mtime (same length, so only the key tells): must not be used.
  const key = good.toString("latin1", MAGIC.length, headerEnd - 1).split(":");
  const mtime = key[3]!;
  key[3] = mtime.slice(0, -1) + (mtime.endsWith("1") ? "2" : "1");
  writeFileSync(file, Buffer.concat([Buffer.from(`${MAGIC}${key.join(":")}\n`, "latin1"), good.subarray(headerEnd)]));
  const stale = identity(file);
  runWithCache(home);
  assert.notEqual(identity(file), stale, "a stale key is rewritten");
  assert.deepEqual(readFileSync(file).subarray(0, headerEnd), good.subarray(0, headerEnd), "with this build's key");
  // Right key, data V8 cannot take.
  writeFileSync(file, Buffer.concat([good.subarray(0, headerEnd), Buffer.from("not V8 code cache data at all")]));
  const garbage = identity(file);
  runWithCache(home);
  assert.notEqual(identity(file), garbage, "rejected data is rewritten");
});

test("writing its cache, a Node version removes this bundle's caches of other versions, and nothing else", { timeout: 240_000 }, (t) => {
  const home = scratchDir(t, "corral-code-cache-");
  runWithCache(home);
  const dir = path.join(home, "code-cache");
  const mine = path.basename(cacheFileIn(dir));
  const place = mine.slice(0, mine.indexOf("-node"));
  const olderNode = `${place}-node18.0.0-${process.arch}.v8`;
  const otherPlace = `run-00000000-node18.0.0-${process.arch}.v8`;
  const otherBundle = `jobs-${place.slice("run-".length)}-node18.0.0-${process.arch}.v8`;
  for (const name of [olderNode, otherPlace, otherBundle]) writeFileSync(path.join(dir, name), "old");
  rmSync(path.join(dir, mine));
  runWithCache(home);
  assert.deepEqual(readdirSync(dir).sort(), [otherBundle, otherPlace, mine].sort());
});

test("a cache directory that others can write, or that is a link, is neither read nor written", { timeout: 240_000 }, (t) => {
  const home = scratchDir(t, "corral-code-cache-");
  const dir = path.join(home, "code-cache");
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o777);
  runWithCache(home);
  assert.deepEqual(readdirSync(dir), [], "nothing written into a world-writable directory");

  const other = scratchDir(t, "corral-code-cache-");
  const target = path.join(other, "elsewhere");
  mkdirSync(target, { mode: 0o700 });
  symlinkSync(target, path.join(other, "code-cache"));
  runWithCache(other);
  assert.deepEqual(readdirSync(target), [], "nothing written through a link");
});

test("a cache directory of another account (say, a home kept by sudo) is neither read nor written", { timeout: 240_000 }, (t) => {
  if (process.getuid?.() !== 0) {
    t.skip("needs root to give a directory to another account");
    return;
  }
  const home = scratchDir(t, "corral-code-cache-");
  const dir = path.join(home, "code-cache");
  mkdirSync(dir, { mode: 0o700 });
  chownSync(dir, 65534, 65534);
  runWithCache(home);
  assert.deepEqual(readdirSync(dir), [], "nothing written into another account's directory");
});

test("with no place for a cache (the cache dir is a file), commands run as before and say nothing", { timeout: 120_000 }, (t) => {
  const home = scratchDir(t, "corral-code-cache-");
  const notADir = path.join(home, "file");
  writeFileSync(notADir, "");
  runWithCache(notADir);
});
