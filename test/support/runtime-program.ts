// A TypeScript program of the tests run under each runtime, as that
// runtime runs source: Node through tsx, Deno and Bun directly (both from
// node_modules/.bin, installed as dev dependencies).
import path from "node:path";
import process from "node:process";
import { repoRoot } from "./corral-cli.ts";

const devBin = (name: string) => path.join(repoRoot, "node_modules", ".bin", name);

/** argv that runs `program` under Node, Deno and Bun. */
export function programUnderEachRuntime(program: string): Record<"node" | "deno" | "bun", string[]> {
  return {
    node: [process.execPath, "--import", "tsx", program],
    deno: [devBin("deno"), "run", "--allow-all", "--quiet", program],
    bun: [devBin("bun"), program],
  };
}
