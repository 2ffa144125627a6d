// The house rules over the tree's folders (DESIGN.md section 3), beside the
// older ones in rules.ts: every import points down the floors (FLOORS; a type
// import too), nothing outside lib/runtime names `Deno.` or `Bun.` or asks
// which runtime it runs on (the runtime seam), and only lib/supervise/**
// imports the supervisor's backend folders (guardian, process group,
// node-pty). Each rule reports one line per offending import or use.
import path from "node:path";
import { globalUses, tokenWords } from "./import-scan.ts";

/** A source file under lib/ or cli/: posix path relative to the root, and its text. */
export interface SourceFile {
  readonly file: string;
  readonly text: string;
}

/** One relative import: the importing file and line, the imported file, whether it is `import()`. */
export interface Edge {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly dynamic: boolean;
}

export interface HouseViolation {
  readonly rule: "folder-rank" | "runtime-seam" | "backend-folder";
  readonly message: string;
}

/**
 * The floors, lowest first: a file may import its own floor or a lower one,
 * never a higher one. lib/<folder> by its first folder; cli/ is the top.
 * Folders on one floor (proc, env, config) may import each other, as long as
 * no folder cycle forms (rules.ts).
 */
export const FLOORS: readonly (readonly string[])[] = [
  ["lib/core"],
  ["lib/runtime"],
  ["lib/proc", "lib/env", "lib/config"],
  ["lib/output"],
  ["lib/supervise"],
  ["lib/pty", "lib/jobs"],
  ["lib/agent"],
  ["lib/view"],
  ["cli"],
];

/** The one folder that may ask which runtime this is, and use Deno's and Bun's own API. */
export const RUNTIME_SEAM = "lib/runtime";
/** The supervisor, and its backends: only the supervisor imports a backend folder. */
export const SUPERVISOR = "lib/supervise";
export const BACKEND_FOLDERS = ["lib/supervise/guardian", "lib/supervise/process-group", "lib/supervise/node-pty"] as const;

const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

/** The floor of `file` (index into FLOORS), or undefined for a file on none (a new lib/ folder: place it). */
export function floorOf(file: string): number | undefined {
  const k = FLOORS.findIndex((floor) => floor.some((dir) => inside(file, dir)));
  return k < 0 ? undefined : k;
}

/** The folder of `file` that has its floor: lib/supervise for lib/supervise/guardian/client.ts. */
const floorFolder = (file: string) => FLOORS.flat().find((dir) => inside(file, dir)) as string;
/** The floors as the house says them: core < runtime < proc/env/config < ... < cli. */
const FLOORS_SAID = FLOORS.map((floor) => floor.map((dir) => dir.replace(/^lib\//, "")).join("/")).join(" < ");

/** An import from a lower floor to a higher one (an arrow back up), or from or to a lib/ folder on no floor. */
export function folderRanks(edges: readonly Edge[]): HouseViolation[] {
  return edges.flatMap((e) => {
    if (!inside(e.target, "lib") && !inside(e.target, "cli")) return [];
    const from = floorOf(e.file);
    const to = floorOf(e.target);
    if (from === undefined || to === undefined) {
      const loose = from === undefined ? e.file : e.target;
      return [{
        rule: "folder-rank" as const,
        message: `${e.file}:${e.line}: ${loose} is in no floor of the house; add its folder to FLOORS in test/support/layering/house.ts`,
      }];
    }
    if (to <= from) return [];
    return [{
      rule: "folder-rank" as const,
      message: `${e.file}:${e.line}: imports ${e.target}${e.dynamic ? " (import())" : ""}, an arrow back up from ` +
        `${floorFolder(e.file)} to ${floorFolder(e.target)}; the floors, lowest first: ${FLOORS_SAID}; ` +
        "move what both need down, or pass it in from above",
    }];
  });
}

/** The runtime's own globals, named only inside RUNTIME_SEAM. */
const RUNTIME_GLOBALS = new Set(["Deno", "Bun"]);

/**
 * Outside lib/runtime: `Deno.`/`Bun.` as globals, `globalThis.Deno`, `"Deno" in
 * globalThis`, `process.versions.bun`/`.deno`, or an import of the runtime's
 * name (runtime-name.ts, or currentRuntime from anywhere).
 */
export function runtimeSeam(files: readonly SourceFile[], edges: readonly Edge[]): HouseViolation[] {
  const out: HouseViolation[] = [];
  const say = (file: string, line: number, what: string) =>
    out.push({
      rule: "runtime-seam",
      message: `${file}:${line}: ${what} outside ${RUNTIME_SEAM}/; decide by a trait of lib/runtime/traits.ts, ` +
        `or put the runtime's way in ${RUNTIME_SEAM}/<node|deno|bun>/ behind lib/runtime/platform.ts`,
    });
  for (const { file, text } of files) {
    if (inside(file, RUNTIME_SEAM)) continue;
    for (const use of globalUses(text, RUNTIME_GLOBALS)) say(file, use.line, `uses ${use.name}.`);
    const words = tokenWords(text);
    words.forEach((w, i) => {
      const next = words[i + 1];
      const after = words[i + 2];
      if (w.text === "globalThis" && next?.text === "." && (after?.text === "Deno" || after?.text === "Bun")) say(file, w.line, `reads globalThis.${after.text}`);
      if ((w.text === '"Deno"' || w.text === '"Bun"') && next?.text === "in") say(file, w.line, `asks ${w.text} in ...`);
      if (w.text === "versions" && next?.text === "." && (after?.text === "bun" || after?.text === "deno")) say(file, w.line, `reads versions.${after.text}`);
      if (w.text === "currentRuntime") say(file, w.line, "asks currentRuntime()");
    });
  }
  for (const e of edges) {
    if (!inside(e.file, RUNTIME_SEAM) && e.target === `${RUNTIME_SEAM}/runtime-name.ts`) say(e.file, e.line, `imports ${e.target}`);
  }
  return out.sort((a, b) => a.message.localeCompare(b.message));
}

/** An import of a backend folder from outside lib/supervise (the supervisor's own files re-export what others need). */
export function backendFolders(edges: readonly Edge[]): HouseViolation[] {
  return edges
    .filter((e) => !inside(e.file, SUPERVISOR) && BACKEND_FOLDERS.some((dir) => inside(e.target, dir)))
    .map((e) => ({
      rule: "backend-folder" as const,
      message: `${e.file}:${e.line}: imports ${e.target}, a backend of the supervisor; only ${SUPERVISOR}/** imports ` +
        `${BACKEND_FOLDERS.map((d) => path.posix.basename(d)).join(", ")}: go through ${SUPERVISOR}/`,
    }));
}
