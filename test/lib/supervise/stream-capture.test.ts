// Each stream's capture keeps its own limits (spec.ts StdioChoice `capture`,
// lib/output/byte-sink.ts StreamCapture): stdout and stderr of one pipe tree
// asked for different heads and tails get exactly those, under the guardian
// (which keeps both streams itself, each by its own limits: native/
// capture.c, protocol v6; lines, v7) and under the process group (which streams every
// byte into the stores). The stores adopt the guardian's result through the
// capture, knowing nothing of the guardian.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedStore, type BoundedStoreOptions } from "../../../lib/output/bounded-store.ts";
import { showOutput } from "../../../lib/output/shown-output.ts";
import { chooseSupervisor } from "../../../lib/supervise/decide.ts";
import { endOf, startPipeTree } from "../../../lib/supervise/start.ts";
import type { SupervisorName } from "../../../lib/supervise/handle.ts";
import { locateGuardian } from "../../../lib/supervise/guardian-setup.ts";

/** `seq from to`'s output. */
function seq(from: number, to: number): Buffer {
  let text = "";
  for (let n = from; n <= to; n++) text += `${n}\n`;
  return Buffer.from(text);
}

const OUT = seq(1, 3000);
const ERR = seq(50_001, 52_000);
const LIMITS = { stdout: { headBytes: 100, tailBytes: 300 }, stderr: { headBytes: 2000, tailBytes: 50 } } as const;

const supervisors: SupervisorName[] = locateGuardian(process.env, { build: false }).built ? ["guardian", "process-group"] : ["process-group"];

/** Runs OUT on stdout and ERR on stderr under `supervisor`, each stream captured into a store opened with its own options. */
async function captureBoth(supervisor: SupervisorName, options: Record<"stdout" | "stderr", BoundedStoreOptions>): Promise<{ stdout: BoundedStore; stderr: BoundedStore }> {
  const choice = chooseSupervisor({ mode: "pipe", sweep: "on-exit", prefer: supervisor });
  const stdout = await BoundedStore.open({ ...options.stdout, nativeCapture: true });
  const stderr = await BoundedStore.open({ ...options.stderr, nativeCapture: true });
  const tree = await startPipeTree(choice, {
    argv: ["/bin/sh", "-c", "seq 1 3000; seq 50001 52000 >&2"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    stdin: "ignore",
    stdout: { sink: stdout, capture: stdout.capture() },
    stderr: { sink: stderr, capture: stderr.capture() },
    graceMs: 2000,
  });
  assert.equal((await endOf(tree)).facts.code, 0);
  await stdout.close();
  await stderr.close();
  return { stdout, stderr };
}

for (const supervisor of ["guardian", "process-group"] as const) {
  test(`${supervisor}: stdout and stderr keep their own head and tail`, { timeout: 60_000 }, async (t) => {
    if (!supervisors.includes(supervisor)) return t.skip("the guardian is not built here");
    const { stdout, stderr } = await captureBoth(supervisor, LIMITS);
    for (const [name, store, data] of [["stdout", stdout, OUT], ["stderr", stderr, ERR]] as const) {
      const { headBytes, tailBytes } = LIMITS[name];
      const shot = store.snapshot();
      assert.equal(shot.bytes, data.length, `${name}: every byte counted`);
      assert.deepEqual(Buffer.from(shot.head), data.subarray(0, headBytes), `${name}: its own head`);
      assert.deepEqual(Buffer.from(shot.tail), data.subarray(data.length - tailBytes), `${name}: its own tail`);
      assert.equal(shot.lineFeeds, name === "stdout" ? 3000 : 2000, `${name}: line feeds`);
    }
  });
}

// Line limits travel in the capture too (protocol v7): the guardian frames
// only the first N lines of a stream as its head and hands over only its last
// M lines as the tail, each stream by its own; what is shown (showOutput) is
// the same as when every byte streamed through JavaScript.
const LINES = {
  stdout: { headBytes: 4096, tailBytes: 4096, headLines: 3, tailLines: 2 },
  stderr: { headBytes: 4096, tailBytes: 4096, headLines: 0, tailLines: 5 },
} as const;

test("guardian: each stream's head ends at its own line N and its tail is its own last M lines", { timeout: 60_000 }, async (t) => {
  if (!supervisors.includes("guardian")) return t.skip("the guardian is not built here");
  const shown = new Map<string, unknown>();
  for (const supervisor of ["guardian", "process-group"] as const) {
    const { stdout, stderr } = await captureBoth(supervisor, LINES);
    for (const [name, store, data, lineFeeds] of [["stdout", stdout, OUT, 3000], ["stderr", stderr, ERR, 2000]] as const) {
      const limits = LINES[name];
      const shot = store.snapshot();
      assert.equal(shot.bytes, data.length, `${supervisor} ${name}: every byte counted`);
      assert.equal(shot.lineFeeds, lineFeeds, `${supervisor} ${name}: line feeds of the whole stream`);
      if (supervisor === "guardian") {
        // What the guardian handed over is only the lines asked for.
        const lines = data.toString().split(/(?<=\n)/);
        assert.equal(Buffer.from(shot.head).toString(), lines.slice(0, limits.headLines).join(""), `${name}: the head is its first ${limits.headLines} lines`);
        assert.equal(Buffer.from(shot.tail).toString(), lines.slice(-limits.tailLines).join(""), `${name}: the tail is its last ${limits.tailLines} lines`);
      }
      shown.set(`${supervisor} ${name}`, showOutput(shot, limits));
    }
  }
  for (const name of ["stdout", "stderr"]) {
    assert.deepEqual(shown.get(`guardian ${name}`), shown.get(`process-group ${name}`), `${name}: shown the same either way, cutBy included`);
  }
});
