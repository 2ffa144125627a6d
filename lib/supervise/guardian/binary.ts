// Where the guardian binary is, or why there is none and the absolute
// command that builds it. The package root is found by walking up from this
// module until a package.json named "corral", so the same code works from
// dist/ (bundled) and from lib/ (Deno, Bun).
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { buildIntoCache, cachedGuardianDir } from "./build.ts";
import { selfCommand } from "../../runtime/self-command.ts";

/** Where a built guardian was found. */
export type GuardianSource = "override" | "package" | "cache";

/** The answer probe prints and the spawn backends choose by. */
export type GuardianBinary =
  | { readonly built: true; readonly path: string; readonly source: GuardianSource }
  | { readonly built: false; readonly path: string | null; readonly why: string; readonly fix: string | null };

/**
 * This module's directory. import.meta.dirname first (Node 20.11+, Deno,
 * Bun; the hot CommonJS bundles define it as __dirname): node:url, which
 * fileURLToPath needs, costs Bun about 3 ms of every `run` to load (`bun`
 * of a file that only requires it, N=41) and Deno its stand-in's load.
 */
function moduleDir(): string {
  return import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));
}

/** The corral package root (the directory holding its package.json). */
export function packageRoot(from: string = moduleDir()): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === "corral") return dir;
      } catch {
        // not ours or unreadable: keep walking
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** The absolute command line that builds the guardian for this copy of corral. */
export function buildCommand(): string {
  try {
    const self = selfCommand(["probe", "--build"]);
    return [self.file, ...self.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ");
  } catch {
    return "corral probe --build";
  }
}

/** How locateGuardian may act when no guardian is built yet. */
export interface LocateOptions {
  /** Build into the per-user cache when a compiler is there (default true; probe passes false). */
  readonly build?: boolean;
}

/**
 * The guardian to use: $CORRAL_GUARDIAN_BIN when set (tests point it at the
 * sanitizer build); else native/build/corral-guardian under the package
 * root (built by `npm install`'s script or `make -C native`); else the
 * per-user cache build of the same sources, built here on first need when
 * the install script did not run (`--ignore-scripts`, npm's script policy).
 */
export function locateGuardian(env: Readonly<Record<string, string | undefined>> = process.env, options: LocateOptions = {}): GuardianBinary {
  if (process.platform !== "linux" && process.platform !== "android") {
    return { built: false, path: null, why: `the guardian supports Linux only (this is ${process.platform})`, fix: null };
  }
  const override = env.CORRAL_GUARDIAN_BIN;
  // Set on purpose (tests, a custom build): reported as is, nothing to build.
  if (override) return checkFile(path.resolve(override), "override", null);
  const root = packageRoot();
  if (root === null) return { built: false, path: null, why: "cannot find the corral package root (no package.json named corral above this module)", fix: null };
  const packaged = path.join(root, "native", "build", "corral-guardian");
  if (existsSync(packaged)) return checkFile(packaged, "package", buildCommand);
  const nativeDir = path.join(root, "native");
  let cached: string;
  try {
    cached = path.join(cachedGuardianDir(nativeDir, env), "corral-guardian");
  } catch {
    return { built: false, path: packaged, why: `${packaged} is missing and the guardian's C sources are not in ${nativeDir}`, fix: null };
  }
  if (existsSync(cached)) return checkFile(cached, "cache", buildCommand);
  if (options.build !== false && env.CORRAL_GUARDIAN_BUILD !== "never") {
    // One line, once per user and source version: a command that pauses
    // for seconds should say why.
    const result = buildIntoCache(nativeDir, env, false, (dir) => process.stderr.write(`corral: building the guardian into ${dir} (once; npm's install script did not build it)\n`));
    if (result.ok) return { built: true, path: result.guardian, source: "cache" };
    return { built: false, path: packaged, why: `the guardian is not built (${result.why})`, fix: buildCommand() };
  }
  return { built: false, path: packaged, why: `the guardian is not built (${packaged} is missing; npm's install script did not run or had no C compiler)`, fix: buildCommand() };
}

/** `fix` made only when needed: the command line reads the runtime's argv and executable (node:process under Deno). */
function checkFile(file: string, source: GuardianSource, fix: (() => string) | null): GuardianBinary {
  const named = source === "override" ? " (named by CORRAL_GUARDIAN_BIN)" : "";
  if (!existsSync(file)) return { built: false, path: file, why: `${file}${named} is missing`, fix: fix?.() ?? null };
  try {
    accessSync(file, constants.X_OK);
  } catch {
    return { built: false, path: file, why: `${file}${named} is not executable`, fix: fix?.() ?? null };
  }
  return { built: true, path: file, source };
}

/** The reason a guardian is missing, with the command that builds it, for one stderr line. */
export function missingGuardian(found: Extract<GuardianBinary, { built: false }>): string {
  return found.fix ? `${found.why}; build it with: ${found.fix}` : found.why;
}
