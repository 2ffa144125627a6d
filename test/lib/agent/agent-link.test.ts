// The agent client's link (lib/agent/client/agent-link.ts) on each runtime:
// node:net under Node, Bun's and Deno's own sockets under Bun and Deno
// (issue 9, start-up). A fake agent here answers test/support/agent-link-client.ts
// run under each runtime: requests and replies larger than a socket buffer
// (Bun's write() takes part and the rest must follow in order), replies
// matched by id, pause and resume under a burst, and a hang-up with a
// request in flight (rejected with why, and `closed` settles).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eventFrame, FrameDecoder, frameJson, jsonFrame, MAX_FRAME_BYTES } from "../../../lib/agent/protocol/frames.ts";
import type { AgentEvent } from "../../../lib/agent/protocol/operations.ts";
import { repoRoot } from "../../support/corral-cli.ts";
import { programUnderEachRuntime } from "../../support/runtime-program.ts";

const program = path.join(repoRoot, "test", "support", "agent-link-client.ts");
const RUNTIMES: Record<string, string[]> = programUnderEachRuntime(program);

/** A fake agent: echo (with the payload's size), burst (N events, then the reply), hang-up (closes). */
function fakeAgent(socket: string): Promise<net.Server> {
  const server = net.createServer((conn) => {
    const decoder = new FrameDecoder(MAX_FRAME_BYTES);
    conn.on("error", () => {});
    conn.on("data", (chunk: Buffer) => {
      for (const frame of decoder.push(new Uint8Array(chunk))) {
        const request = frameJson(frame.body) as { id: number; op: string; pad?: string; count?: number };
        if (request.op === "hang-up") {
          conn.destroy();
          return;
        }
        if (request.op === "burst") {
          for (let n = 0; n < (request.count ?? 0); n++) conn.write(eventFrame({ event: "burst", n } as unknown as AgentEvent));
        }
        conn.write(jsonFrame({ id: request.id, ok: true, got: request.pad?.length ?? 0, pad: request.pad ?? "" }));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve(server));
  });
}

function runClient(argv: string[], socket: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, [...argv.slice(1), socket], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    // Generous: a loaded 2-core machine; a hang (a lost write, a resume that never reads) ends here.
    const deadline = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}

for (const [name, argv] of Object.entries(RUNTIMES)) {
  test(`the agent client's link under ${name}: big frames, replies by id, pause and resume, a hang-up`, { timeout: 180_000 }, async (t) => {
    if (!existsSync(argv[0]!)) {
      t.skip(`${name} is not installed (npm ci installs it)`);
      return;
    }
    const dir = mkdtempSync(path.join(tmpdir(), "corral-link-"));
    const socket = path.join(dir, "agent.sock");
    const server = await fakeAgent(socket);
    t.after(() => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const ran = await runClient(argv, socket);
    assert.equal(ran.code, 0, `${name}: ${ran.stderr}`);
    assert.deepEqual(JSON.parse(ran.stdout), {
      got: 3 * 1024 * 1024,
      echoed: 3 * 1024 * 1024,
      several: ["a", "b", "c"],
      events: 2000,
      inOrder: true,
      lost: "the agent closed the connection",
    });
  });
}
