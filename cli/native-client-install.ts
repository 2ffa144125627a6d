// The `corral` command a package install links (package.json "bin":
// dist/corral): the native client when this machine could build it
// (native/client/corral-client.c says why it exists), otherwise a link to
// the JavaScript CLI beside it (dist/corral.cjs, whose `#!/usr/bin/env node`
// runs it as before; Node resolves the link, so it finds its bundles). Placed by the build
// (`npm run build:native`) and again by npm's install script, because a
// tarball may carry a client built for another machine: the install builds
// its own or falls back to the link, and either way the same command works.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { executable, findCompiler } from "../lib/supervise/guardian-setup.ts";
import { runtimeTraits } from "../lib/runtime/traits.ts";


// As the guardian's install build: no -Werror, a newer compiler's new warning must not cost the fast door.
const FLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra"];

export type LauncherKind = "native" | "javascript";

/** Builds the client into native/build when it is not there, then places dist/corral; says which. */
export function placeLauncher(root: string, build = true): { readonly kind: LauncherKind; readonly why?: string } {
  const client = path.join(root, "native", "build", "corral-client");
  let why: string | undefined;
  if (!executable(client) && build) why = compileClient(root, client);
  // The agent's hand for connect's stdio (native/adopt/): without it connect relays, as before.
  const adopt = path.join(root, "native", "build", "corral-adopt.node");
  if (executable(client) && !existsSync(adopt) && build) compileSources(path.join(root, "native", "adopt"), adopt, ["-fPIC", "-shared"]);
  const target = path.join(root, "dist", "corral");
  const temp = `${target}.${process.pid}.tmp`;
  mkdirSync(path.dirname(target), { recursive: true });
  if (executable(client)) {
    recordRuntime(root);
    copyFileSync(client, temp);
    chmodSync(temp, 0o755);
    renameSync(temp, target);
    return { kind: "native" };
  }
  symlinkSync("corral.cjs", temp);
  renameSync(temp, target);
  return { kind: "javascript", why: why ?? "the native client is not built" };
}

/**
 * The node this install runs under, for the client to hand over to where
 * `node` is not on PATH (native/client/hand-over.c). Beside the client's
 * build, which `npm pack` leaves out: a tarball never carries another
 * machine's path.
 */
function recordRuntime(root: string): void {
  if (!runtimeTraits().isNodeExecutable) return;
  const file = path.join(root, "native", "build", "js-runtime");
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${process.execPath}\n`);
  renameSync(temp, file);
}

/** Compiles native/client/*.c with the compiler the guardian's build would use; returns why not when it could not. */
function compileClient(root: string, output: string): string | undefined {
  const dir = path.join(root, "native", "client");
  if (!existsSync(dir)) return "the native client's sources are not in this copy";
  return compileSources(dir, output, []);
}

/** Compiles every .c of `dir` into `output` (renamed into place); why not, when it could not. */
function compileSources(dir: string, output: string, extra: readonly string[]): string | undefined {
  if (!existsSync(dir)) return `${dir} is not in this copy`;
  const cc = findCompiler(process.env);
  if (cc === null) return "no C compiler found (looked for $CC, cc, gcc, clang on PATH)";
  const sources = readdirSync(dir).filter((f) => f.endsWith(".c")).sort().map((f) => path.join(dir, f));
  mkdirSync(path.dirname(output), { recursive: true });
  const temp = `${output}.${process.pid}.tmp`;
  const result = spawnSync(cc, [...FLAGS, ...extra, "-o", temp, ...sources], { encoding: "utf8" });
  if (result.status === 0) {
    renameSync(temp, output);
    return undefined;
  }
  rmSync(temp, { force: true });
  return `${cc} failed: ${(result.stderr ?? String(result.error ?? "")).split("\n")[0]}`;
}
