// The house layering rules (DESIGN.md section 3), checked on the source tree
// so that they are enforced by `npm run lint` rather than remembered:
// no import cycle between folders (only a folder and its direct subfolders,
// a router and its handlers/, may import each other), lib/ never imports cli/, a file over 300 lines says why in its
// opening comment, a command's command.ts imports only its own flags and the
// shared flag parsers, the agent's protocol folder loads no runtime API
// (runtime-free.ts), and the floors, the runtime seam and the supervisor's
// backend folders (house.ts).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { importsOf } from "./import-scan.ts";
import { runtimeUses } from "./runtime-free.ts";
import { backendFolders, type Edge, folderRanks, runtimeSeam, type SourceFile } from "./house.ts";

/** The folders whose imports the rules cover, relative to the repository root. */
export const SOURCE_ROOTS = ["lib", "cli"] as const;
/** Besides SOURCE_ROOTS, the folder whose .ts files must say why they pass MAX_LINES. */
export const TEST_ROOT = "test";
export const MAX_LINES = 300;
/** The opening-comment line that lets a file pass MAX_LINES: `// Longer than 300 lines because <reason>`. */
export const LONG_FILE_REASON = /^\/\/\s*Longer than 300 lines because\s+\S.{8,}/;
/** Where command.ts files live: cli/commands/<command>/command.ts (or deeper, for subcommands). */
export const COMMANDS_DIR = "cli/commands";
/** The shared flag value parsers a command.ts may use: this file, or any file in this folder. */
export const SHARED_FLAG_PARSERS = "cli/shared/flag-parsers";

export type RuleName =
  | "folder-cycle"
  | "lib-imports-cli"
  | "long-file"
  | "command-imports"
  | "runtime-api"
  | "folder-rank"
  | "runtime-seam"
  | "backend-folder";

export interface Violation {
  readonly rule: RuleName;
  /** `file:line` (or the folders of a cycle) and what is wrong, in one line. */
  readonly message: string;
}

/** Every violation in the tree at `root`, rule by rule; empty when it is clean. */
export function checkLayers(root: string): Violation[] {
  const files = SOURCE_ROOTS.flatMap((dir) => sourceFiles(root, dir));
  const edges = files.flatMap(projectImports);
  return [
    ...folderCycles(edges),
    ...libImportingCli(edges),
    ...longFiles([...files, ...sourceFiles(root, TEST_ROOT)]),
    ...commandImports(edges),
    ...runtimeApis(files),
    ...folderRanks(edges),
    ...runtimeSeam(files, edges),
    ...backendFolders(edges),
  ];
}

function sourceFiles(root: string, dir: string): SourceFile[] {
  let entries;
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return []; // a root the tree does not have (yet)
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const file = `${dir}/${e.name}`;
      if (e.isDirectory()) return sourceFiles(root, file);
      return e.name.endsWith(".ts") ? [{ file, text: readFileSync(path.join(root, file), "utf8") }] : [];
    });
}

/** Relative imports only: packages and node: builtins are not part of the layering. */
function projectImports({ file, text }: SourceFile): Edge[] {
  return importsOf(text)
    .filter((ref) => ref.specifier.startsWith("./") || ref.specifier.startsWith("../"))
    .map((ref) => ({
      file,
      line: ref.line,
      target: path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.specifier)),
      dynamic: ref.dynamic,
    }));
}

const inside = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

/**
 * Folders are the nodes; a file's import of a file in another folder is an
 * arrow, a type import too. A folder inside another is a place of its own,
 * with one allowance: a folder and its direct subfolders may import each
 * other (a router imports its handlers/, they its types), so a knot made of
 * one folder, some of its direct subfolders and arrows between the folder and
 * each of them only passes. Any other cycle is caught, one that reaches a
 * subfolder's subfolder (cli -> cli/commands/completions -> cli) or leaves
 * the folder (lib/output -> lib/supervise -> lib/supervise/process-group ->
 * lib/output) included.
 */
function folderCycles(edges: readonly Edge[]): Violation[] {
  const arrows = new Map<string, Map<string, Edge>>();
  for (const edge of edges) {
    const from = path.posix.dirname(edge.file);
    const to = path.posix.dirname(edge.target);
    if (!SOURCE_ROOTS.some((r) => inside(to, r))) continue;
    if (from === to) continue;
    if (!arrows.has(from)) arrows.set(from, new Map());
    const out = arrows.get(from) as Map<string, Edge>;
    if (!out.has(to)) out.set(to, edge);
  }
  return stronglyConnected(arrows).filter((knot) => !folderWithSubfolders(knot, arrows)).map((knot) => {
    const cycle = shortestCycle(knot, arrows);
    const why = cycle.slice(1).map((to, k) => {
      const edge = arrows.get(cycle[k] as string)?.get(to) as Edge;
      return `${edge.file}:${edge.line} imports ${edge.target}`;
    });
    const more = knot.length > cycle.length - 1 ? `; ${knot.length} folders in all: ${knot.join(", ")}` : "";
    return {
      rule: "folder-cycle",
      message: `import cycle between folders: ${cycle.join(" -> ")} (${why.join("; ")}${more}); ` +
        "move what both sides need into a folder both may import",
    };
  });
}

/** True when `knot` is one folder and direct subfolders of it, each arrow in it between the folder and a subfolder. */
function folderWithSubfolders(knot: readonly string[], arrows: ReadonlyMap<string, ReadonlyMap<string, Edge>>): boolean {
  const parent = knot.find((f) => knot.every((g) => g === f || path.posix.dirname(g) === f));
  if (parent === undefined) return false;
  return knot.every((from) => [...(arrows.get(from)?.keys() ?? [])].every((to) => !knot.includes(to) || from === parent || to === parent));
}

/** Tarjan's algorithm: the sets of two or more folders that all reach each other. */
function stronglyConnected(arrows: ReadonlyMap<string, ReadonlyMap<string, Edge>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const knots: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of arrows.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const knot: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      knot.push(member);
    } while (member !== node);
    if (knot.length > 1) knots.push(knot.sort());
  };
  for (const node of [...arrows.keys()].sort()) if (!index.has(node)) visit(node);
  return knots;
}

/** The shortest way round from the knot's first folder back to itself, e.g. [a, b, a]. */
function shortestCycle(knot: readonly string[], arrows: ReadonlyMap<string, ReadonlyMap<string, Edge>>): string[] {
  const start = knot[0] as string;
  const members = new Set(knot);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q] as string;
    for (const next of arrows.get(node)?.keys() ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const way = [node];
        while (way[0] !== start) way.unshift(cameFrom.get(way[0] as string) as string);
        return [...way, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start]; // unreachable for a strongly connected knot
}

function libImportingCli(edges: readonly Edge[]): Violation[] {
  return edges
    .filter((e) => inside(e.file, "lib") && inside(e.target, "cli"))
    .map((e) => ({
      rule: "lib-imports-cli",
      message: `${e.file}:${e.line}: lib/ imports cli/ (${e.target}); lib/ is usable without the CLI, ` +
        "so move what both need into lib/",
    }));
}

function longFiles(files: readonly SourceFile[]): Violation[] {
  return files.flatMap(({ file, text }) => {
    const lines = lineCount(text);
    if (lines <= MAX_LINES || openingComment(text).some((l) => LONG_FILE_REASON.test(l))) return [];
    return [{
      rule: "long-file" as const,
      message: `${file}: ${lines} lines, over ${MAX_LINES}; split it by concern, or give the reason in its ` +
        `opening comment as a line "// Longer than ${MAX_LINES} lines because ..."`,
    }];
  });
}

/** Lines as `wc -l` counts them, plus an unterminated last line. */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** The `//` lines the file opens with (after a `#!` line), trimmed. */
function openingComment(text: string): string[] {
  const lines = text.split("\n");
  if (lines[0]?.startsWith("#!")) lines.shift();
  const comment: string[] = [];
  for (const raw of lines) {
    const l = raw.trim();
    if (!l.startsWith("//")) break;
    comment.push(l);
  }
  return comment;
}

/**
 * command.ts is the definition only (stricli's template): its flags from
 * ./flags.ts (or the flags.ts of the command folder it sits in, for a
 * subcommand group), value parsers from the shared folder, the definitions of
 * its subcommand groups (./<group>/command.ts), and its implementations loaded
 * lazily with `import()` from its own folder (./impl.ts, or one file per
 * subcommand), so that help and completion never load what a command does.
 */
function commandImports(edges: readonly Edge[]): Violation[] {
  return edges
    .filter((e) => inside(e.file, COMMANDS_DIR) && path.posix.basename(e.file) === "command.ts")
    .filter((e) => {
      const own = path.posix.dirname(e.file);
      if (e.dynamic) return path.posix.dirname(e.target) !== own || path.posix.basename(e.target) === "command.ts";
      if (path.posix.basename(e.target) === "flags.ts" && inside(own, path.posix.dirname(e.target)) &&
        inside(path.posix.dirname(e.target), COMMANDS_DIR) && path.posix.dirname(e.target) !== COMMANDS_DIR) return false;
      if (e.target === `${SHARED_FLAG_PARSERS}.ts` || inside(e.target, SHARED_FLAG_PARSERS)) return false;
      return !(path.posix.basename(e.target) === "command.ts" && path.posix.dirname(path.posix.dirname(e.target)) === own);
    })
    .map((e) => ({
      rule: "command-imports",
      message: `${e.file}:${e.line}: a command.ts imports only its ./flags.ts, ${SHARED_FLAG_PARSERS} and its ` +
        `subcommand groups' ./<group>/command.ts (and loads its own folder's implementations with import()), not ` +
        `${e.dynamic ? "import() of " : ""}${e.target}`,
    }));
}

/** The protocol folder is shared by client and agent on every runtime: it and what it loads use no runtime API. */
function runtimeApis(files: readonly SourceFile[]): Violation[] {
  return runtimeUses(new Map(files.map((f) => [f.file, f.text]))).map((use) => {
    const last = use.chain[use.chain.length - 1] as string;
    const via = use.chain.length > 1 ? ` (loaded via ${use.chain.join(" -> ")})` : "";
    return {
      rule: "runtime-api" as const,
      message: `${last}:${use.line}: uses ${use.api}, but ${use.from} must load no runtime API${via}; ` +
        "import it with `import type`, or move what needs the runtime out of the protocol folder",
    };
  });
}
