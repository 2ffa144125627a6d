// Where the guardian binary is, or why there is none: the package root is
// found by walking up from this module until a package.json named "corral",
// so the same code works from dist/ (bundled) and from lib/ (Deno, Bun).
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** The answer probe prints and the spawn backends choose by. */
export type GuardianBinary =
  | { readonly built: true; readonly path: string }
  | { readonly built: false; readonly path: string | null; readonly why: string };

/** The corral package root (the directory holding its package.json). */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string | null {
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

/**
 * The guardian to use: $CORRAL_GUARDIAN_BIN when set (tests point it at the
 * sanitizer build), else native/build/corral-guardian under the package root.
 */
export function locateGuardian(env: Readonly<Record<string, string | undefined>> = process.env): GuardianBinary {
  if (process.platform !== "linux" && process.platform !== "android") {
    return { built: false, path: null, why: `the guardian supports Linux only (this is ${process.platform})` };
  }
  const override = env.CORRAL_GUARDIAN_BIN;
  const root = packageRoot();
  const file = override ? path.resolve(override) : root ? path.join(root, "native", "build", "corral-guardian") : null;
  if (file === null) return { built: false, path: null, why: "cannot find the corral package root (no package.json named corral above this module)" };
  if (!existsSync(file)) {
    return { built: false, path: file, why: `${file} is missing: build it with make -C native (needs a C compiler)` };
  }
  try {
    accessSync(file, constants.X_OK);
  } catch {
    return { built: false, path: file, why: `${file} is not executable (chmod +x, or rebuild with make -C native)` };
  }
  return { built: true, path: file };
}
