// Which JavaScript runtime this process is: the runtime seam (DESIGN.md,
// "Runtime differences (Node/Deno/Bun) are decided at one seam"). A file of
// its own with no imports, so that the entry (cli/main.ts, through entry.ts) can ask before
// anything else loads: under Deno the first touch of `process` (the global
// or node:process) costs about 18 ms and any `node:` module 8-30 ms (issue
// 9, start-up). Asked only inside lib/runtime (the layering's runtime-seam
// rule): the rest of corral reads traits.ts.

/** Which JavaScript runtime this process is. */
export type RuntimeName = "node" | "deno" | "bun";

/** The runtime seam: decided once, here. */
export function currentRuntime(): RuntimeName {
  if ("Deno" in globalThis) return "deno";
  if ("Bun" in globalThis) return "bun";
  return "node";
}
