// Loading a hot bundle (dist/hot/<name>.cjs; hot-app.ts says why there is
// one per command). The bundles are CommonJS so that Node 20, which has no
// compile cache for modules (module.enableCompileCache is Node 22.1+), can
// still start them from V8's code cache: the bytecode of the last run is
// read from a per-user file instead of parsing and compiling the bundle
// again (issue 9, start-up; README "Start-up" has the figures). Deno and
// Bun keep caches of their own and simply require the file.
//
// Why per user and checked: code-cache data is code. V8 checks that it was
// made by the same V8 with the same flags for a source of the same length,
// not that it came from this source, so a cache someone else could write
// would be a way to run their code as this user. The directory must be this
// user's own, not a link, and writable by no one else; a cache is also tied
// to the bundle's file identity (device, inode, size, mtime in ns), so a
// rebuilt bundle of the same length never runs stale bytecode.
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { entryRuntime } from "../../lib/runtime/entry.ts";
import vm from "node:vm";
import { corralCacheDir } from "../../lib/runtime/cache-dir.ts";
import { currentUid } from "../../lib/runtime/user-id.ts";

/** What a hot bundle exports (cli/hot/<name>.ts). */
export interface HotBundle {
  runApp(args: readonly string[]): Promise<void>;
}

/** Format tag of a cache file; the key line follows it, then V8's data. */
const MAGIC = "corral-code-cache 1\n";

/** Loads `file` (an absolute path to a dist/hot/*.cjs bundle). */
export function loadHotBundle(file: string): HotBundle {
  const onNode = entryRuntime().nodeEntry;
  // NODE_DISABLE_COMPILE_CACHE: Node's own switch for the same kind of cache.
  if (!onNode || process.env.NODE_DISABLE_COMPILE_CACHE) return createRequire(file)(file) as HotBundle;
  return loadThroughCodeCache(file);
}

function loadThroughCodeCache(file: string): HotBundle {
  const source = readFileSync(file, "utf8");
  const cacheFile = codeCacheFile(file);
  const key = cacheFile === null ? "" : bundleIdentity(file);
  const cached = cacheFile === null ? undefined : readCache(cacheFile, key);
  // The same wrapper Node gives a CommonJS file, so the bundle sees the usual names.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData: cached,
  });
  const module = { exports: {} as HotBundle };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cacheFile !== null && (cached === undefined || script.cachedDataRejected === true)) {
    // At exit, not now: by then the functions this command ran are compiled too, and go into the cache.
    process.once("exit", () => writeCache(cacheFile, key, script));
  }
  return module.exports;
}

/** `<cache dir>/code-cache/<bundle>-<place>-node<version>-<arch>.v8`, or null when there is no safe place for it. */
function codeCacheFile(file: string): string | null {
  try {
    const dir = path.join(corralCacheDir(), "code-cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    if (!info.isDirectory() || info.uid !== currentUid() || (info.mode & 0o022) !== 0) return null;
    return path.join(dir, `${path.basename(file, ".cjs")}-${placeOf(file)}-node${process.versions.node}-${process.arch}.v8`);
  } catch {
    return null; // no home, a read-only disk, ...: start without the cache
  }
}

/**
 * Eight hex digits of the bundle's path (FNV-1a): two copies of corral (a
 * global install and a project's) each keep their own cache instead of
 * rewriting one file in turn.
 */
function placeOf(file: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i++) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function bundleIdentity(file: string): string {
  const info = statSync(file, { bigint: true });
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${process.version}`;
}

/** V8's data from `cacheFile` when it was made for this bundle as it is now. */
function readCache(cacheFile: string, key: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(cacheFile, "r");
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (info.uid !== currentUid() || info.size > 64 * 1024 * 1024) return undefined;
    const all = Buffer.allocUnsafe(info.size);
    let got = 0;
    while (got < all.length) {
      const n = readSync(fd, all, got, all.length - got, got);
      if (n === 0) break;
      got += n;
    }
    const header = `${MAGIC}${key}\n`;
    if (got < header.length || all.toString("latin1", 0, header.length) !== header) return undefined;
    return all.subarray(header.length, got);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes the cache under a temporary name, renamed into place: a reader never sees half of one. */
function writeCache(cacheFile: string, key: string, script: vm.Script): void {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${MAGIC}${key}\n`, "latin1"), script.createCachedData()]), { mode: 0o600 });
    renameSync(temp, cacheFile);
    dropOtherVersions(cacheFile);
  } catch {
    // A full disk or a read-only home costs the next start its cache, nothing more.
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing left to do at exit
    }
  }
}

/**
 * Removes this bundle's caches made by other Node versions (same bundle, same
 * place, `-node<other version>-`): after an upgrade they would never be read
 * again. Runs only when a cache was just written, so at most once per upgrade.
 */
function dropOtherVersions(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  const name = path.basename(cacheFile);
  const prefix = name.slice(0, name.indexOf("-node") + "-node".length);
  for (const other of readdirSync(dir)) {
    if (other !== name && other.startsWith(prefix) && other.endsWith(".v8")) rmSync(path.join(dir, other), { force: true });
  }
}
