// Building the guardian where npm did not (issue 9): `--ignore-scripts`,
// npm's install-script approval policy, a copy unpacked by hand. The C
// sources ship in the package (native/); this compiles them with the
// system's `cc` straight into a directory, one binary at a time under a
// temporary name renamed into place, so no reader ever runs a half-written
// file. The per-user cache is keyed by a hash of the sources, so an upgrade
// builds afresh and two copies of corral never share a stale binary; a lock
// file makes concurrent first calls build once.
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { corralCacheDir } from "../../runtime/cache-dir.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The two programs built from native/: the guardian, and the shim `run --tty` jobs need for Ctrl-Z. */
const PROGRAMS = [
  // Built first: the guardian appearing is the sign that the directory is complete.
  { name: "corral-job-shim", sources: (all: readonly string[]) => all.filter((f) => f === "job-shim.c") },
  { name: "corral-guardian", sources: (all: readonly string[]) => all.filter((f) => f.endsWith(".c") && f !== "job-shim.c") },
] as const;

// No -Werror here, unlike the Makefile: a newer compiler's new warning must
// not cost a user the guardian.
const FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra"];

/** The C sources and headers in `nativeDir`, sorted. */
function sourceFiles(nativeDir: string): string[] {
  return readdirSync(nativeDir).filter((f) => f.endsWith(".c") || f.endsWith(".h")).sort();
}

// Not remembered as a failure (no `.failed` file): installing a compiler later is enough.
const NO_COMPILER = "no C compiler found (looked for $CC, cc, gcc, clang on PATH)";

/**
 * A short hash of the native sources and the flags: the cache key. Not
 * node:crypto, whose import costs every command about 5 ms on Node 20 (see
 * random-hex.ts): two 32-bit FNV-1a lanes are plenty to tell versions apart
 * in a directory only this user writes.
 */
export function nativeSourceHash(nativeDir: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  const feed = (bytes: Uint8Array) => {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      a = Math.imul(a ^ byte, 0x01000193);
      b = Math.imul(b ^ byte, 0x01000193) ^ (b >>> 15);
    }
  };
  const text = new TextEncoder();
  feed(text.encode(FLAGS.join(" ")));
  for (const file of sourceFiles(nativeDir)) {
    feed(text.encode(`\0${file}\0`));
    feed(readFileSync(path.join(nativeDir, file)));
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** Where the per-user build of these sources lives. */
export function cachedGuardianDir(nativeDir: string, env: Env = process.env): string {
  return path.join(corralCacheDir(env), `guardian-${nativeSourceHash(nativeDir)}`);
}

/** Whether `file` exists and may be run by us. */
export function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The C compiler: `$CC` (its first word; the rest are arguments) when set, else cc, gcc, clang on PATH; null when none. */
export function findCompiler(env: Env = process.env): string | null {
  const names = env.CC ? [env.CC.trim().split(/\s+/)[0] ?? "cc"] : ["cc", "gcc", "clang"];
  for (const name of names) {
    if (name.includes("/")) {
      if (executable(name)) return path.resolve(name);
      continue;
    }
    for (const dir of (env.PATH ?? "").split(":")) {
      if (dir === "") continue;
      const file = path.join(dir, name);
      if (executable(file)) return file;
    }
  }
  return null;
}

/** What a build did. */
export type BuildResult =
  | { readonly ok: true; readonly dir: string; readonly guardian: string }
  | { readonly ok: false; readonly dir: string; readonly why: string };

/**
 * Compiles both programs from `nativeDir` into `outDir` (created), each
 * linked under a temporary name and renamed into place.
 */
export function compileGuardian(nativeDir: string, outDir: string, env: Env = process.env): BuildResult {
  const cc = findCompiler(env);
  if (cc === null) return { ok: false, dir: outDir, why: NO_COMPILER };
  // `CC="ccache gcc"` and the like: the words after the program are its arguments.
  const ccArgs = env.CC ? env.CC.trim().split(/\s+/).slice(1) : [];
  let all: string[];
  try {
    all = sourceFiles(nativeDir);
  } catch (error) {
    return { ok: false, dir: outDir, why: `cannot read the guardian's sources in ${nativeDir}: ${(error as Error).message}` };
  }
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (error) {
    return { ok: false, dir: outDir, why: `cannot create ${outDir}: ${(error as Error).message}` };
  }
  for (const program of PROGRAMS) {
    const target = path.join(outDir, program.name);
    const temp = `${target}.${process.pid}.tmp`;
    const sources = program.sources(all).map((f) => path.join(nativeDir, f));
    const r = spawnSync(cc, [...ccArgs, ...FLAGS, "-o", temp, ...sources], { encoding: "utf8", timeout: 300_000 });
    if (r.error || r.status !== 0) {
      rmSync(temp, { force: true });
      const first = (r.stderr ?? "").split("\n").find((l) => /error/i.test(l)) ?? (r.stderr ?? "").trim().split("\n")[0];
      const detail = r.error ? r.error.message : `exit ${r.status}${first ? `: ${first.trim()}` : ""}`;
      return { ok: false, dir: outDir, why: `${cc} failed to build ${program.name} (${detail})` };
    }
    chmodSync(temp, 0o755);
    renameSync(temp, target);
  }
  return { ok: true, dir: outDir, guardian: path.join(outDir, "corral-guardian") };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// A synchronous pause for the lock wait: the callers (backend choice) are
// synchronous, and a build takes seconds, not a hot path.
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds into the per-user cache under a lock (`<dir>.lock` holding the
 * builder's pid): a concurrent caller waits for the builder, a lock left by
 * a dead process is taken over. A failed build leaves `<dir>.failed` with
 * the reason, so later calls do not retry on every start (`force` does).
 */
export function buildIntoCache(nativeDir: string, env: Env = process.env, force = false, announce?: (dir: string) => void): BuildResult {
  let dir: string;
  try {
    dir = cachedGuardianDir(nativeDir, env);
  } catch (error) {
    return { ok: false, dir: nativeDir, why: `cannot read the guardian's sources in ${nativeDir}: ${(error as Error).message}` };
  }
  const guardian = path.join(dir, "corral-guardian");
  const lock = `${dir}.lock`;
  const failed = `${dir}.failed`;
  if (!executable(guardian) && findCompiler(env) === null) return { ok: false, dir, why: NO_COMPILER };
  try {
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  } catch (error) {
    return { ok: false, dir, why: `cannot create ${path.dirname(dir)}: ${(error as Error).message}` };
  }
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (executable(guardian)) return { ok: true, dir, guardian };
    if (!force && existsSync(failed)) return { ok: false, dir, why: readFileSync(failed, "utf8").trim() };
    let fd: number;
    try {
      fd = openSync(lock, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return { ok: false, dir, why: `cannot create ${lock}: ${(error as Error).message}` };
      const holder = Number.parseInt(readFileOr(lock), 10);
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { force: true });
      else if (Date.now() > deadline) return { ok: false, dir, why: `another corral (pid ${holder}) has been building the guardian in ${dir} for 10 minutes` };
      else pause(100);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      if (executable(guardian)) return { ok: true, dir, guardian };
      announce?.(dir);
      const result = compileGuardian(nativeDir, dir, env);
      if (result.ok) rmSync(failed, { force: true });
      else writeFileSync(failed, result.why + "\n");
      return result;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * Builds the guardian for the copy of corral at `root`: into its own
 * native/build when that is writable (what npm's install script does, so
 * every user of a global install shares it), else into the per-user cache.
 * A build already there is kept; `force` only retries a remembered failure.
 */
export function buildForPackage(root: string, env: Env = process.env, force = true): BuildResult {
  const nativeDir = path.join(root, "native");
  const buildDir = path.join(nativeDir, "build");
  const packaged = path.join(buildDir, "corral-guardian");
  if (executable(packaged)) return { ok: true, dir: buildDir, guardian: packaged };
  if (writable(existsSync(buildDir) ? buildDir : nativeDir)) return compileGuardian(nativeDir, buildDir, env);
  return buildIntoCache(nativeDir, env, force);
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
