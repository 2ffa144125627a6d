// The MCP door against the connect door (one agent, one `cat` session):
// lockstep terminal_send + terminal_screen through the MCP SDK's client and
// a `corral mcp` server over stdio, side by side with the same send + screen
// pair through one `corral connect` (JSON lines), interleaved in blocks so a
// busy moment of the shared machine weighs on both alike. Prints medians,
// p95 and the ratio: what the MCP framing, schemas and text shaping cost.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CORRAL, fmt, median, percentile, startAgent } from "./agent-bench-kit.ts";

const ROUNDS = Number(process.env.CORRAL_BENCH_ROUNDS ?? 300);
const WARMUP = 30;
const BLOCK = 50;
const out = (line: string) => process.stdout.write(`${line}\n`);
const describe = (times: number[]) => `median ${fmt(median(times), 3)} ms, p95 ${fmt(percentile(times, 95), 3)} ms`;

async function timed(rounds: number, work: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

const agent = startAgent("mcp-bench");
const connect = spawn(CORRAL[0] as string, [...CORRAL.slice(1), "connect"], { env: agent.env, stdio: ["pipe", "pipe", "inherit"] });
const client = new Client({ name: "corral-bench", version: "0" });
try {
  const session = agent.cli(["pty", "open", "--name", "mb", "--cols", "80", "--rows", "24", "--", "cat"]).trim();
  const lines = createInterface({ input: connect.stdout })[Symbol.asyncIterator]();
  const ask = async (request: object) => {
    connect.stdin.write(`${JSON.stringify(request)}\n`);
    const next = await lines.next();
    if (next.done === true) throw new Error("corral connect ended");
  };
  const connectPair = async () => {
    await ask({ op: "send", session, text: "x", keys: ["Enter"] });
    await ask({ op: "screen", session });
  };
  await client.connect(new StdioClientTransport({
    command: CORRAL[0] as string,
    args: [...CORRAL.slice(1), "mcp"],
    env: { ...process.env as Record<string, string>, ...agent.env },
    stderr: "inherit",
  }));
  const mcpPair = async () => {
    const sent = await client.callTool({ name: "terminal_send", arguments: { session, text: "x", keys: ["Enter"] } });
    const screen = await client.callTool({ name: "terminal_screen", arguments: { session } });
    if (sent.isError === true || screen.isError === true) throw new Error(`a tool failed: ${JSON.stringify([sent, screen]).slice(0, 300)}`);
  };
  await timed(WARMUP, connectPair);
  await timed(WARMUP, mcpPair);
  const connectTimes: number[] = [];
  const mcpTimes: number[] = [];
  for (let done = 0; done < ROUNDS; done += BLOCK) {
    connectTimes.push(...await timed(BLOCK, connectPair));
    mcpTimes.push(...await timed(BLOCK, mcpPair));
  }
  out(`lockstep send+screen pair, ${ROUNDS} rounds, 80x24 cat session, one agent`);
  out(`  corral connect (JSON lines):            ${describe(connectTimes)}`);
  out(`  corral mcp (SDK client, tools/call x2): ${describe(mcpTimes)}`);
  out(`  ratio mcp/connect: median ${fmt(median(mcpTimes) / median(connectTimes), 2)}x, p95 ${fmt(percentile(mcpTimes, 95) / percentile(connectTimes, 95), 2)}x`);
} finally {
  await client.close().catch(() => {});
  connect.stdin.end();
  agent.stop();
}
