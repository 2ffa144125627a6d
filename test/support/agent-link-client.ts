// A program for test/lib/agent/agent-link.test.ts: the agent client
// (lib/agent/client/client.ts, over whichever link its runtime takes:
// node:net, Bun's or Deno's own sockets) against the test's fake agent at argv[2],
// run under node (tsx), deno and bun. Prints one JSON line of what it saw.
import process from "node:process";
import { AgentClient } from "../../lib/agent/client/client.ts";

const socket = process.argv[2];
if (socket === undefined) throw new Error("usage: agent-link-client.ts SOCKET");
const BIG = 3 * 1024 * 1024;
const client = await AgentClient.open(socket);

// Larger than any socket buffer both ways: the request is written in parts, the reply read in parts.
const big = (await client.send({ op: "echo", pad: "x".repeat(BIG) })) as unknown as { got: number; pad: string };

// Several in flight, each reply matched to its request.
const several = await Promise.all(["a", "b", "c"].map((pad) => client.send({ op: "echo", pad }))) as unknown as { pad: string }[];

// A burst of events read with a pause after each one, resumed later: every event arrives, in order.
let events = 0;
let inOrder = true;
const burst = new Promise<void>((resolve) => {
  client.onEvent = (event) => {
    const n = (event as unknown as { n: number }).n;
    if (n !== events) inOrder = false;
    events++;
    client.pause();
    setImmediate(() => client.resume());
    if (events === 2000) resolve();
  };
});
await client.send({ op: "burst", count: 2000 });
await burst;

// The agent hangs up with a request in flight: it fails with why, and the client hears the close.
const lost = await client.send({ op: "hang-up" }).then(() => "answered", (error: Error) => error.message);
await client.closed;

process.stdout.write(`${JSON.stringify({ got: big.got, echoed: big.pad.length, several: several.map((r) => r.pad), events, inOrder, lost })}\n`);
