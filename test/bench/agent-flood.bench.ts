// (d) 95th-percentile screen latency on a quiet session while another
// session floods output, against the same reads with no flood, in the same
// run. Reads go through an in-process client (one connection), so what is
// measured is the agent's own delay: socket, event loop, emulator.
import { fmt, percentile, startAgent } from "./agent-bench-kit.ts";

const SAMPLES = Number(process.env.CORRAL_BENCH_SAMPLES ?? 300);
const out = (line: string) => process.stdout.write(`${line}\n`);

async function sampleScreens(client: Awaited<ReturnType<ReturnType<typeof startAgent>["client"]>>, session: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await client.call({ op: "send", session, text: `q${i % 10}` });
    const start = performance.now();
    await client.call({ op: "screen", session });
    times.push(performance.now() - start);
    // Reads spread over time, as a driver polling a screen would make them.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return times;
}

const agent = startAgent("flood");
try {
  const client = await agent.client();
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const quiet = await client.call({ op: "open", argv: ["cat"], env });
  const calm = await sampleScreens(client, quiet.session.id);
  const flood = await client.call({ op: "open", argv: ["sh", "-c", "exec yes 'flooding the terminal with a line of output that never ends'"], env });
  // Let the flood reach full speed first.
  await client.call({ op: "wait", session: flood.session.id, text: ["flooding"], timeoutMs: 30_000 });
  const busy = await sampleScreens(client, quiet.session.id);
  const floodInfo = (await client.call({ op: "list" })).sessions.find((s) => s.id === flood.session.id);
  await client.call({ op: "close", session: flood.session.id, force: true });
  client.close();
  const p95Calm = percentile(calm, 95);
  const p95Busy = percentile(busy, 95);
  out(`(d) screen latency of a quiet session, ${SAMPLES} reads each`);
  out(`  no flood:   p50 ${fmt(percentile(calm, 50), 2)} ms, p95 ${fmt(p95Calm, 2)} ms`);
  out(`  with flood: p50 ${fmt(percentile(busy, 50), 2)} ms, p95 ${fmt(p95Busy, 2)} ms, max ${fmt(Math.max(...busy), 1)} ms (aim: p95 < 50 ms)`);
  out(`  ratio p95 flood/no flood: ${fmt(p95Busy / p95Calm, 2)}x; flood session alive during reads: ${floodInfo?.alive}`);
} finally {
  agent.stop();
}
