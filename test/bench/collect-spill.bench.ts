// Issue 2 benchmark: `corral collect --max-bytes 1MiB --spill F -- cat BIG`
// against `cat BIG > F` (aim: at most 1.5x, peak memory under 100 MB at any
// size). Two more rows explain the ratio: `cat BIG | cat > F` (the cost of
// any pipe at all; `cat > F` alone is an in-kernel copy_file_range) and a bare
// Node script that reads cat's pipe and discards it (the JavaScript floor).
// corral runs twice: with its default backend (the guardian when it is built,
// which relays the output over its socket) and with CORRAL_GUARDIAN=never
// (the pure JavaScript path: the child's pipe read straight into the store).
// Two rows without the CLI show what feeding the store can cost: from the
// child's stdout stream (what the JS path does) and from an OutputChannel
// (a socket read with one reused buffer).
// Issue 12 rows: plain collect against `cat BIG > /dev/null`, --live (the
// guardian tees to corral's stdout), and every corral row once more with
// corral's own start-up (`collect -- true`) taken off: the data path alone.
// JavaScript-path rows (issue 12, peak RSS under 64 MB at any volume): plain,
// --spill and --live with CORRAL_GUARDIAN=never on Node, and on Deno and Bun
// when node_modules has them (the child's output read through an
// OutputChannel, one reused buffer); each prints its peak RSS.
// Floors (issue 12): the least any tool can cost that takes its command's
// output from a pipe, whatever it then does (test/bench/pipe-floor.c: read
// and discard; into F by read and write, or by splice, the faster counts). When a floor, or a floor plus corral's own
// start-up, is over an aim, no collect that reads a pipe meets it on this
// machine; the lines below say which.
// CORRAL_BENCH_BIG_MB sets the size (default 1024); best of 3 each.
import { spawnSync } from "node:child_process";
import { buildSync } from "esbuild";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, createReadStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Timed, timed } from "./timed-tree.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sizeMb = Number(process.env.CORRAL_BENCH_BIG_MB ?? 1024);
const RUNS = 3;
const dir = mkdtempSync(path.join(tmpdir(), "corral-bench-spill-"));
const big = path.join(dir, "big");
const out = path.join(dir, "out");
/** Times argv run from the repository (timed-tree.ts). */
const timedHere = (argv: readonly string[], stdoutPath?: string, env?: Record<string, string>): Promise<Timed> => timed(repo, argv, stdoutPath, env);


function makeBig(): void {
  // A 16 MiB random block repeated: incompressible enough, and fast to write.
  const block = randomBytes(16 * 1024 * 1024);
  const fd = openSync(big, "w");
  let left = sizeMb * 1024 * 1024;
  while (left > 0) {
    const n = Math.min(left, block.length);
    writeSync(fd, block, 0, n);
    left -= n;
  }
  closeSync(fd);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

// The store fed without the CLI, bundled once so tsx's start-up stays out.
const feedScript = path.join(dir, "feed.mjs");
buildSync({
  stdin: {
    resolveDir: repo,
    sourcefile: "feed.ts",
    contents: `
      import { spawn, spawnSync } from "node:child_process";
      import { BoundedStore } from "./lib/output/bounded-store.ts";
      import { OutputChannel } from "./lib/output/output-channel.ts";
      import { feedStore } from "./lib/output/stream-feed.ts";
      const [how, input, spill] = process.argv.slice(2);
      const store = await BoundedStore.open({ headBytes: 65536, tailBytes: 1048576, spillPath: spill });
      if (how === "channel") {
        const channel = await OutputChannel.open(store);
        const child = spawn("cat", [input], { stdio: ["ignore", channel.childEnd, "inherit"] });
        channel.released();
        await Promise.all([channel.ended, new Promise((r) => child.once("close", r))]);
      } else {
        const child = spawn("cat", [input], { stdio: ["ignore", "pipe", "inherit"] });
        await feedStore(child.stdout, store);
      }
      await store.close();`,
  },
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: feedScript,
  logLevel: "warning",
});

// The floors (pipe-floor.c), built here with the system C compiler.
const floorBinary = path.join(dir, "pipe-floor");
const haveFloor = spawnSync("cc", ["-O2", "-o", floorBinary, path.join(repo, "test", "bench", "pipe-floor.c")], { stdio: "inherit" }).status === 0;
const READ_FLOOR = "floor: cat BIG | read, discard";
const SPLICE_FLOOR = "floor: cat BIG | splice > F";
const WRITE_FLOOR = "floor: cat BIG | read, write F";

const nodeFloor = `const c=require("child_process").spawn("cat",[process.argv[1]],{stdio:["ignore","pipe","inherit"]});c.stdout.on("data",()=>{});`;
// Node runs dist/corral.cjs (which loads the bundle through V8's code
// cache: what the bin, now the native client dist/corral, hands a command it
// does not serve itself to); Deno and Bun the ES module.
const nodeCli = path.join(repo, "dist", "corral.cjs");
const collect = [process.execPath, nodeCli, "collect", "--max-bytes", "1MiB", "--spill", out, "--", "cat", big];
const plainCollect = [process.execPath, nodeCli, "collect", "--max-bytes", "1MiB", "--", "cat", big];
const startupCollect = [process.execPath, nodeCli, "collect", "--max-bytes", "1MiB", "--", "true"];
const liveCollect = [process.execPath, nodeCli, "collect", "--live", "--max-bytes", "1MiB", "--spill", out, "--", "cat", big];
// The same three collects on the JavaScript path, per runtime found.
const cli = path.join(repo, "dist", "corral.mjs");
const collectArgs = {
  plain: ["collect", "--max-bytes", "1MiB", "--", "cat", big],
  spill: ["collect", "--max-bytes", "1MiB", "--spill", out, "--", "cat", big],
  live: ["collect", "--live", "--max-bytes", "1MiB", "--spill", out, "--", "cat", big],
} as const;
const runtimes: [string, string[]][] = [["node", [process.execPath, nodeCli]]];
const denoBin = path.join(repo, "node_modules", ".bin", "deno");
const bunBin = path.join(repo, "node_modules", ".bin", "bun");
if (existsSync(denoBin)) runtimes.push(["deno", [denoBin, "run", "-A", "--quiet", "--node-modules-dir=manual", cli]]);
if (existsSync(bunBin)) runtimes.push(["bun", [bunBin, cli]]);
const jsRows: Record<string, () => Promise<Timed>> = {};
for (const [rt, prefix] of runtimes) {
  for (const [mode, args] of Object.entries(collectArgs)) {
    jsRows[`JS path ${rt} collect ${mode === "plain" ? "" : `--${mode}`}`.trimEnd()] = () => timedHere([...prefix, ...args], "/dev/null", { CORRAL_GUARDIAN: "never" });
  }
}
// Deno under the guardian: --live hands our stdout/stderr to it as its own fd 1 and 2 (no JS tee).
const DENO_LIVE = "deno collect --live, guardian";
if (existsSync(denoBin)) {
  const deno = runtimes.find(([rt]) => rt === "deno")?.[1] as string[];
  jsRows[DENO_LIVE] = () => timedHere([...deno, ...collectArgs.live], "/dev/null", { CORRAL_GUARDIAN: "auto" });
}
const JS = "corral collect, JS path";
const PLAIN = "corral collect (no spill), default";
const LIVE = "corral collect --live --spill F";
const STARTUP = "corral collect -- true (start-up)";
// What keeping much costs: --max-bytes 64MiB keeps a 64 MiB tail (the whole
// tree's peak RSS; the guardian's and corral's own are apart in the README).
const KEPT_MIB = 64;
const KEPT = `corral collect --max-bytes ${KEPT_MIB}MiB`;
const DEFAULT = "corral collect, default backend";
const cases: Record<string, () => Promise<Timed>> = {
  "cat BIG > F": () => timedHere(["cat", big], out),
  "cat BIG | cat > F": () => timedHere(["sh", "-c", 'cat "$1" | cat > "$2"', "sh", big, out]),
  ...(haveFloor
    ? {
      [READ_FLOOR]: () => timedHere(["sh", "-c", 'cat "$1" | "$2" read', "sh", big, floorBinary]),
      [SPLICE_FLOOR]: () => timedHere(["sh", "-c", 'cat "$1" | "$2" splice "$3"', "sh", big, floorBinary, out]),
      [WRITE_FLOOR]: () => timedHere(["sh", "-c", 'cat "$1" | "$2" write "$3"', "sh", big, floorBinary, out]),
    }
    : {}),
  "node reads cat's pipe, discards": () => timedHere([process.execPath, "-e", nodeFloor, big]),
  "store fed by stdout stream, no CLI": () => timedHere([process.execPath, feedScript, "stream", big, `${out}.stdout`]),
  "store fed by OutputChannel, no CLI": () => timedHere([process.execPath, feedScript, "channel", big, `${out}.stdout`]),
  [JS]: () => timedHere(collect, "/dev/null", { CORRAL_GUARDIAN: "never" }),
  [DEFAULT]: () => timedHere(collect, "/dev/null", { CORRAL_GUARDIAN: "auto" }),
  // Issue 12: head and tail only, against reading the file and discarding it.
  "cat BIG > /dev/null": () => timedHere(["sh", "-c", 'cat "$1" > /dev/null', "sh", big]),
  [PLAIN]: () => timedHere(plainCollect, "/dev/null", { CORRAL_GUARDIAN: "auto" }),
  // What any collect costs before the first byte: Node, the CLI, the guardian.
  [STARTUP]: () => timedHere(startupCollect, "/dev/null", { CORRAL_GUARDIAN: "auto" }),
  [KEPT]: () => timedHere([process.execPath, nodeCli, "collect", "--max-bytes", `${KEPT_MIB}MiB`, "--", "cat", big], "/dev/null", { CORRAL_GUARDIAN: "auto" }),
  // --live: the stream through corral's stdout (here /dev/null) as well as the spill.
  [LIVE]: () => timedHere(liveCollect, "/dev/null", { CORRAL_GUARDIAN: "auto" }),
  ...jsRows,
};

// Before each row (untimed): the outputs of earlier rows removed and the
// disk's write-back finished. Otherwise a row pays for the rows before it:
// truncating a file still being written back waits for that I/O, and 1 GiB
// rows queue several GiB of write-back (cat > F measured 2.1 s at 1 GiB
// against 0.18 s at 512 MiB in one such run).
function settleDisk(): void {
  for (const f of [out, `${out}.stdout`, `${out}.stderr`]) rmSync(f, { force: true });
  spawnSync("sync", [], { stdio: "ignore" });
}

// The rows whose command writes the spill file, checked byte for byte once.
const writesSpill = (name: string) =>
  !name.startsWith("cat") && !name.startsWith("floor") && !name.startsWith("node") &&
  ![PLAIN, STARTUP, KEPT].includes(name) && !name.endsWith(" collect");
const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
try {
  process.stdout.write(`collect-spill: ${sizeMb} MiB, best of ${RUNS} (load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})\n`);
  makeBig();
  const best = new Map<string, Timed>();
  const peak = new Map<string, number>();
  let same = true;
  const spill = `${out}.stdout`; // separate streams: FILE gets .stdout/.stderr
  const bigHash = await sha256(big);
  for (let run = 0; run < RUNS; run++) {
    // Interleaved, so a busy moment on the machine hurts every row alike.
    for (const [name, go] of Object.entries(cases)) {
      settleDisk();
      const t = await go();
      if ((best.get(name)?.ms ?? Infinity) > t.ms) best.set(name, t);
      peak.set(name, Math.max(peak.get(name) ?? 0, t.peakRss ?? 0));
      if (run === 0 && writesSpill(name)) {
        same &&= statSync(spill).size === statSync(big).size && (await sha256(spill)) === bigHash;
      }
    }
  }
  const ms = (name: string) => (best.get(name) as Timed).ms;
  const cat = ms("cat BIG > F");
  const mib = (bytes: number | undefined) => `${((bytes ?? 0) / 1048576).toFixed(1)} MiB`;
  for (const [name, t] of best) {
    const cpu = t.cpuMs === undefined ? "" : `  CPU ${fmt(t.cpuMs)}`;
    // Peak RSS only for the Node rows: for the cat rows it would be python's
    // (the pre-exec image counts) or sh's, not what is measured.
    const rss = name.startsWith("cat") || name.startsWith("floor") ? "" : `  peak RSS ${mib(peak.get(name))}`;
    process.stdout.write(`  ${name.padEnd(34)} ${fmt(t.ms)}  ${(t.ms / cat).toFixed(2)}x${cpu}${rss}\n`);
  }
  for (const name of [JS, DEFAULT, "store fed by OutputChannel, no CLI"]) {
    process.stdout.write(
      `${name}: ${(ms(name) / cat).toFixed(2)}x cat > F (aim <= 1.5x), ` +
        `${(ms(name) / ms("cat BIG | cat > F")).toFixed(2)}x cat | cat > F, ` +
        `${(ms(name) / ms("node reads cat's pipe, discards")).toFixed(2)}x the Node pipe floor; ` +
        `peak RSS ${mib(peak.get(name))} (aim < 100 MB)\n`,
    );
  }
  process.stdout.write(
    `${PLAIN}: ${(ms(PLAIN) / ms("cat BIG > /dev/null")).toFixed(2)}x cat > /dev/null (aim <= 2x), ` +
      `${((ms(PLAIN) - ms(STARTUP)) / ms("cat BIG > /dev/null")).toFixed(2)}x after start-up (${fmt(ms(STARTUP))}); ` +
      `peak RSS ${mib(peak.get(PLAIN))} (aim < 64 MB)\n`,
  );
  // The data path alone: the same run minus what `collect -- true` takes (Node, the CLI, the guardian).
  const afterStartup = (name: string) => ((ms(name) - ms(STARTUP)) / cat).toFixed(2);
  process.stdout.write(
    `${DEFAULT}: ${afterStartup(DEFAULT)}x cat > F after start-up (${fmt(ms(STARTUP))})\n`,
  );
  process.stdout.write(
    `${LIVE}: ${(ms(LIVE) / cat).toFixed(2)}x cat > F, ${afterStartup(LIVE)}x after start-up; ` +
      `peak RSS ${mib(peak.get(LIVE))} (aim < 64 MB)\n`,
  );
  if (sizeMb > KEPT_MIB) {
    const over = ((peak.get(KEPT) ?? 0) - (peak.get(STARTUP) ?? 0)) / 1048576;
    process.stdout.write(`${KEPT}: peak RSS ${mib(peak.get(KEPT))}, ${over.toFixed(1)} MiB over collect -- true: ${(over / KEPT_MIB).toFixed(2)}x the ${KEPT_MIB} MiB kept\n`);
  }
  // The JavaScript path: peak RSS per runtime and mode (aim: under 64 MB, 61.0 MiB), and the time against the default backend's.
  for (const [rt] of runtimes) {
    const row = (mode: string) => `JS path ${rt} collect${mode === "" ? "" : ` --${mode}`}`;
    const against = { "": PLAIN, spill: DEFAULT, live: LIVE } as Record<string, string>;
    const parts = ["", "spill", "live"].map((mode) =>
      `${mode === "" ? "plain" : `--${mode}`} ${mib(peak.get(row(mode)))} (${fmt(ms(row(mode)))}, ${(ms(row(mode)) / ms(against[mode] as string)).toFixed(2)}x the default backend)`
    );
    process.stdout.write(`JS path, ${rt}: peak RSS ${parts.join(", ")}; aim < 64 MB (61.0 MiB)\n`);
  }
  if (best.has(DENO_LIVE)) {
    process.stdout.write(`${DENO_LIVE}: peak RSS ${mib(peak.get(DENO_LIVE))} (${fmt(ms(DENO_LIVE))}); aim < 64 MB (61.0 MiB)\n`);
  }
  if (best.has(READ_FLOOR) && best.has(SPLICE_FLOOR) && best.has(WRITE_FLOOR)) {
    const floorLine = (floor: string, base: string, aim: number) => {
      const ratio = ms(floor) / ms(base);
      const withStartup = (ms(floor) + ms(STARTUP)) / ms(base);
      const verdict = ratio > aim ? "the floor alone is over it" : withStartup > aim ? "the floor plus start-up is over it" : "under it";
      return `${floor}: ${ratio.toFixed(2)}x ${base}, ${withStartup.toFixed(2)}x with corral's start-up (aim for collect: ${aim}x; ${verdict})`;
    };
    // Into a file the faster of the two ways is the floor.
    const fileFloor = ms(SPLICE_FLOOR) <= ms(WRITE_FLOOR) ? SPLICE_FLOOR : WRITE_FLOOR;
    process.stdout.write(`${floorLine(READ_FLOOR, "cat BIG > /dev/null", 2)}\n${floorLine(fileFloor, "cat BIG > F", 1.5)}\n`);
  }
  process.stdout.write(`spill identical (size + sha256): ${same ? "yes" : "NO"}\n`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
