// Fairness between connections (issue 15, item 6): one client pipelines
// 10,000 requests in one go while another connection reads a screen in a
// loop, and a third connects fresh now and then. Prints the second
// connection's screen latency (p50/p95) with and without the burst, in the
// same run, and a fresh connection's hello + screen. Aim: p95 under 50 ms.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { fmt, percentile, startAgent } from "./agent-bench-kit.ts";
import { AgentClient } from "../../lib/agent/client/client.ts";

const BURST = Number(process.env.CORRAL_BENCH_BURST ?? 10_000);
const SAMPLES = Number(process.env.CORRAL_BENCH_SAMPLES ?? 200);
const out = (line: string) => process.stdout.write(`${line}\n`);

type Client = Awaited<ReturnType<ReturnType<typeof startAgent>["client"]>>;

/** Screens read one after another until `until` says stop (or SAMPLES reached without it). */
async function sampleScreens(client: Client, session: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (times.length < SAMPLES || !until()) {
    const start = performance.now();
    await client.call({ op: "screen", session });
    times.push(performance.now() - start);
    if (until() && times.length >= 20) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return times;
}

async function freshConnection(socket: string, session: string): Promise<number> {
  const start = performance.now();
  const client = await AgentClient.open(socket);
  await client.hello();
  await client.call({ op: "screen", session });
  client.close();
  return performance.now() - start;
}

/** The burst runs in a process of its own, so parsing its replies does not slow the reader measured here. */
async function burstProcess(socket: string, session: string): Promise<void> {
  const client = await AgentClient.open(socket);
  await client.hello();
  // Started (runtime boot, connect) before the clock: the parent says when.
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  // Pipelined: every request written before any reply is read.
  await Promise.all(Array.from({ length: BURST }, (_, i) =>
    client.call(i % 2 === 0 ? { op: "screen", session } : { op: "list" })));
  client.close();
}

if (process.argv[2] === "--burst") {
  await burstProcess(process.argv[3] as string, process.argv[4] as string);
  process.exit(0);
}

const agent = startAgent("fairness");
try {
  const reader = await agent.client();
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const quiet = await reader.call({ op: "open", argv: ["cat"], env, cols: 120, rows: 40 });
  const busy = await reader.call({ op: "open", argv: ["cat"], env, cols: 120, rows: 40 });
  await reader.call({ op: "send", session: busy.session.id, text: "some text on the screen\r" });

  const calm = await sampleScreens(reader, quiet.session.id, () => true);
  const calmFresh = [await freshConnection(agent.socket, quiet.session.id), await freshConnection(agent.socket, quiet.session.id)];

  let done = false;
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--burst", agent.socket, busy.session.id], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const burst = new Promise<void>((resolve) => child.once("exit", () => resolve())).then(() => (done = true));
  child.stdin.write("go\n");
  const burstStart = performance.now();
  const fresh: number[] = [];
  const freshLoop = (async () => {
    while (!done) fresh.push(await freshConnection(agent.socket, quiet.session.id));
  })();
  const during = await sampleScreens(reader, quiet.session.id, () => done);
  await Promise.all([burst, freshLoop]);
  const burstMs = performance.now() - burstStart;
  reader.close();

  out(`fairness: a client pipelines ${BURST} requests (screen/list) while another reads screens`);
  out(`  burst took ${fmt(burstMs, 0)} ms; ${during.length} screens read meanwhile`);
  out(`  screen, no burst:   p50 ${fmt(percentile(calm, 50), 2)} ms, p95 ${fmt(percentile(calm, 95), 2)} ms`);
  out(`  screen, during:     p50 ${fmt(percentile(during, 50), 2)} ms, p95 ${fmt(percentile(during, 95), 2)} ms, max ${fmt(Math.max(...during), 1)} ms (aim: p95 < 50 ms)`);
  out(`  fresh connection (hello + screen): calm ${fmt(Math.max(...calmFresh), 1)} ms; during: ${fresh.length} made, p95 ${fmt(percentile(fresh, 95), 1)} ms, max ${fmt(Math.max(...fresh), 1)} ms`);
  out(`  ratio p95 during/no burst: ${fmt(percentile(during, 95) / percentile(calm, 95), 2)}x`);
} finally {
  agent.stop();
}
