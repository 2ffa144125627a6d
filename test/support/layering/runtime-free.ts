// The runtime-free rule (DESIGN.md section 3): the agent's protocol folder
// is shared by the client and the agent on Node, Deno and Bun, so neither it
// nor anything it loads at run time may use a runtime's API: no `node:`,
// `bun:` or bare builtin module, no `Deno.`, `Bun.`, `process.` or `Buffer.`.
// Type-only imports are erased and do not count: the protocol may name
// lib/jobs' JobInfo without loading lib/jobs.
import path from "node:path";
import { globalUses, importsOf } from "./import-scan.ts";

/** Folders whose files, and everything they load, must be free of runtime APIs. */
export const RUNTIME_FREE = ["lib/agent/protocol"] as const;

const RUNTIME_PREFIXES = ["node:", "bun:", "deno:"];
const BARE_BUILTINS = new Set(["fs", "path", "os", "net", "child_process", "process", "buffer", "util", "events", "stream", "url", "tty"]);
const RUNTIME_GLOBALS = new Set(["Deno", "Bun", "process", "Buffer"]);

export interface RuntimeUse {
  /** The file in a runtime-free folder the chain starts at. */
  readonly from: string;
  /** The files loaded on the way, ending with the one that uses the API. */
  readonly chain: readonly string[];
  readonly line: number;
  /** `node:fs`, `Deno.`, ... */
  readonly api: string;
}

/** Every runtime API a runtime-free folder reaches through run-time imports; `files` maps posix paths to text. */
export function runtimeUses(files: ReadonlyMap<string, string>): RuntimeUse[] {
  const uses: RuntimeUse[] = [];
  /** Each use is reported once, by the first (alphabetical) protocol file that reaches it. */
  const reported = new Set<string>();
  const report = (use: RuntimeUse) => {
    const key = `${use.chain[use.chain.length - 1]}:${use.line}:${use.api}`;
    if (!reported.has(key)) uses.push(use);
    reported.add(key);
  };
  const starts = [...files.keys()].filter((f) => RUNTIME_FREE.some((dir) => f.startsWith(`${dir}/`))).sort();
  for (const from of starts) {
    const seen = new Map<string, readonly string[]>([[from, [from]]]);
    const queue = [from];
    for (let q = 0; q < queue.length; q++) {
      const file = queue[q] as string;
      const chain = seen.get(file) as readonly string[];
      const text = files.get(file) ?? "";
      for (const use of globalUses(text, RUNTIME_GLOBALS)) report({ from, chain, line: use.line, api: `${use.name}.` });
      for (const ref of importsOf(text)) {
        if (ref.typeOnly) continue;
        const spec = ref.specifier;
        if (RUNTIME_PREFIXES.some((p) => spec.startsWith(p)) || BARE_BUILTINS.has(spec)) {
          report({ from, chain, line: ref.line, api: spec });
          continue;
        }
        if (!spec.startsWith("./") && !spec.startsWith("../")) continue; // a package: not a runtime's API
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (seen.has(target) || !files.has(target)) continue;
        seen.set(target, [...chain, target]);
        queue.push(target);
      }
    }
  }
  return uses;
}
