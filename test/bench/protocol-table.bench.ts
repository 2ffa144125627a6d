// Issue 10 benchmark: what the table of agent operations (lib/agent/protocol)
// costs. (1) Where it loads: the shipped bundle's chunks that hold the
// validator; a one-shot client command loads none of them, only the agent
// does. (2) Once, in the agent: compiling and evaluating the table and its
// checkers (a bundle of protocol/validation.ts, re-imported cache-busted),
// against an empty module the same way. (3) Per request: validating four
// typical requests, against JSON.parse of the same requests (the work every
// request costs anyway). CORRAL_BENCH_RUNS sets the rounds (default 200).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseRequest } from "../../lib/agent/protocol/validation.ts";
import { SERVER_CHECKS } from "../../lib/agent/server/request-checks.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const RUNS = Number(process.env.CORRAL_BENCH_RUNS ?? 200);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

// (1) Which chunks of dist/ hold the validator (one of its messages), and
// whether the entry loads any of them before a command asks (static imports).
const chunks = path.join(repo, "dist", "chunks");
const holders = readdirSync(chunks).filter((name) => readFileSync(path.join(chunks, name), "utf8").includes("must be a session id or name"));
const eager = new Set<string>();
const follow = (file: string) => {
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/(?:from|import)\s*"(\.[^"]+)"/g)) {
    const target = path.resolve(path.dirname(file), m[1] as string);
    if (!eager.has(target)) {
      eager.add(target);
      follow(target);
    }
  }
};
follow(path.join(repo, "dist", "corral.mjs"));
const loadedAtStart = holders.filter((name) => eager.has(path.join(chunks, name)));
process.stdout.write(`protocol-table: the validator is in ${holders.join(", ") || "no chunk (run npm run build)"}; ` +
  `loaded at every start: ${loadedAtStart.length === 0 ? "none of them" : loadedAtStart.join(", ")}\n\n`);

// (2) Compile and evaluate, cache-busted, interleaved with an empty module.
const dir = mkdtempSync(path.join(tmpdir(), "corral-protocol-bench-"));
try {
  const bundle = path.join(dir, "validation.mjs");
  const empty = path.join(dir, "empty.mjs");
  writeFileSync(empty, "export {};\n");
  const built = spawnSync(path.join(repo, "node_modules", ".bin", "esbuild"), [
    path.join(repo, "lib/agent/protocol/validation.ts"), "--bundle", "--platform=neutral", "--format=esm", `--outfile=${bundle}`, "--log-level=warning",
  ], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`esbuild: ${built.stderr}`);
  const load: Record<string, number[]> = { table: [], empty: [] };
  for (let i = 0; i <= RUNS; i++) {
    for (const [name, file] of [["table", bundle], ["empty", empty]] as const) {
      const t = performance.now();
      await import(`${pathToFileURL(file).href}?run=${i}`);
      if (i > 0) load[name]?.push(performance.now() - t);
    }
  }
  const [table, floor] = [median(load.table ?? []), median(load.empty ?? [])];
  process.stdout.write(`| what | median | over an empty module |\n|---|---|---|\n`);
  process.stdout.write(`| load the table and its checkers (once, in the agent) | ${(table * 1000).toFixed(0)} µs | ${((table - floor) * 1000).toFixed(0)} µs |\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// (3) Per request, against JSON.parse of the same text.
const requests = [
  { id: 1, op: "send", session: "b", text: "ls", keys: ["Enter"], wait: { text: ["$ "], timeoutMs: 5000 } },
  { id: 2, op: "open", argv: ["bash"], name: "b", cols: 80, rows: 24, env: { PATH: "/usr/bin", HOME: "/home/u" } },
  { id: 3, op: "screen", session: "b" },
  { id: 4, op: "job-read", job: "%1", from: 0, wait: true, raw: true },
];
const texts = requests.map((r) => JSON.stringify(r));
const N = 100_000;
const perRequest = (work: (i: number) => unknown) => {
  const t = performance.now();
  for (let i = 0; i < N; i++) work(i & 3);
  return ((performance.now() - t) * 1e6) / N;
};
const validate: number[] = [];
const parse: number[] = [];
for (let round = 0; round < 5; round++) {
  validate.push(perRequest((i) => parseRequest(requests[i], SERVER_CHECKS)));
  parse.push(perRequest((i) => JSON.parse(texts[i] as string)));
}
const [v, p] = [median(validate), median(parse)];
process.stdout.write(`| validate one request (send, open, screen, job-read in turn) | ${v.toFixed(0)} ns | JSON.parse of it: ${p.toFixed(0)} ns, ratio ${(v / p).toFixed(2)} |\n`);
