// A mutant is tried in a copy of the checkout, never in the checkout itself:
// a run that is interrupted (Ctrl-C, a hang killed by its deadline) must not
// leave a planted bug behind in the working tree. The copy shares
// node_modules (a symlink) and starts from the checkout's built dist/ and
// guardian, so only what the mutant touches is rebuilt.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Mutation } from "./mutant-list.ts";

/** What a mutation would rebuild: the bundle (TypeScript), the guardian (C), or nothing (test files only). */
export type Rebuild = "ts" | "native" | "none";

export function rebuildFor(file: string): Rebuild {
  if (file.startsWith("native/")) return "native";
  if (file.startsWith("lib/") || file.startsWith("cli/")) return "ts";
  return "none";
}

/** A fresh copy of `root` (without .git and node_modules) in a temporary directory. */
export function scratchCopy(root: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-mutant-"));
  // As a checkout is: tests run corral as a second user (agent-trust), who must reach it.
  chmodSync(dir, 0o755);
  for (const name of readdirSync(root)) {
    if (name === ".git" || name === "node_modules") continue;
    cpSync(path.join(root, name), path.join(dir, name), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

export function removeCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Why a mutation could not be applied (its text is gone or ambiguous), or null once applied. */
export function applyMutation(dir: string, m: Mutation): string | null {
  const file = path.join(dir, m.file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return `${m.file} does not exist`;
  }
  const count = text.split(m.from).length - 1;
  if (count !== 1) return `${m.file} holds the text to replace ${count} times, not once (the code moved: update the mutant)`;
  writeFileSync(file, text.replace(m.from, () => m.to));
  return null;
}

/** Rebuilds what the mutations touched; the failing build's output, or null. */
export function rebuild(dir: string, kinds: ReadonlySet<Rebuild>): string | null {
  const steps: string[][] = [];
  // The whole build for TypeScript: build:ts empties dist/, and build:native puts back what it
  // holds besides the bundles (the native client as dist/corral, which the script tests run).
  if (kinds.has("ts")) steps.push(["npm", "run", "--silent", "build"]);
  else if (kinds.has("native")) steps.push(["make", "-s", "-C", "native"]);
  for (const [cmd, ...args] of steps) {
    const r = spawnSync(cmd!, args, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) return `${[cmd, ...args].join(" ")} failed:\n${r.stdout}${r.stderr}`;
  }
  return null;
}
