// An agent re-adopts a guardian an older corral started: one that says
// protocol 5 in its welcome (before each stream had its own head and tail,
// protocol 6). Played here by a fake guardian on a Unix socket that speaks
// protocol 5's frames as native/owner.c did: the welcome after auth, the
// session's output, input taken with credit, the exit. The session handle
// the agent gets through lib/supervise/adoption.ts must work as with a
// guardian of this build (the per-stream limits are launch flags only, and
// an adoptable guardian never captures, so nothing else differs).
import { test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { encodeFrame, FrameDecoder } from "../../../lib/core/frame.ts";
import { socketBaseDir } from "../../../lib/runtime/socket-base-dir.ts";
import { connectGuardian } from "../../../lib/supervise/reconnect.ts";
import { adoptedGuardianHandle } from "../../../lib/supervise/adoption.ts";
import { Ev, GUARDIAN_PROTOCOL_VERSION, Req } from "../../../lib/supervise/guardian/protocol.ts";
import type { TreeExit } from "../../../lib/supervise/handle.ts";
import { waitFor } from "../../support/wait.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

test("a session whose guardian speaks protocol 5 is re-adopted: output, input and the exit as before", { timeout: 30_000 }, async (t) => {
  assert.equal(GUARDIAN_PROTOCOL_VERSION, 7, "this build speaks 7; the fake below is the older 5");
  const dir = mkdtempSync(path.join(socketBaseDir(), "corral-v5-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const socketPath = path.join(dir, "guardian.sock");
  const child = { pid: process.pid, pgid: process.pid, sid: process.pid, startTime: 1 };
  const heard: { tag: number; body: Uint8Array }[] = [];
  let owner: net.Socket | undefined;
  const server = net.createServer((socket) => {
    owner = socket;
    const decoder = new FrameDecoder(1 << 20);
    socket.on("data", (chunk) => {
      for (const frame of decoder.push(chunk)) {
        heard.push(frame);
        if (frame.tag === Req.auth) {
          assert.equal(new TextDecoder().decode(frame.body), TOKEN);
          socket.write(encodeFrame(Ev.welcome, json({ version: 5, pid: process.pid, mode: "pty", child })));
          socket.write(encodeFrame(Ev.output, new Uint8Array([1, ...new TextEncoder().encode("$ ")])));
        }
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  t.after(() => server.close());

  const guardian = connectGuardian(socketPath, TOKEN);
  const handle = adoptedGuardianHandle(guardian, { guardianPid: process.pid, socket: socketPath, token: TOKEN, child });
  let text = "";
  handle.on("output", (bytes) => (text += new TextDecoder().decode(bytes)));
  const exit = new Promise<TreeExit>((resolve) => handle.on("exit", resolve));
  const welcome = await guardian.ready;
  assert.equal(welcome.version, 5);
  await waitFor(() => text === "$ ", { what: "the session's output after the welcome" });

  // Input goes out as protocol 5's input frames (credited since protocol 4).
  handle.write("ls\n");
  await waitFor(() => heard.some((f) => f.tag === Req.input && new TextDecoder().decode(f.body) === "ls\n"), { what: "the input frame" });

  owner!.write(encodeFrame(Ev.output, new Uint8Array([1, ...new TextEncoder().encode("file\n")])));
  owner!.write(encodeFrame(Ev.eof, new Uint8Array([1])));
  owner!.write(encodeFrame(Ev.exited, json({ code: 0, signal: null, core: false })));
  const ended = await exit;
  assert.equal(ended.code, 0);
  assert.equal(ended.outputComplete, true);
  assert.equal(text, "$ file\n");
  handle.dispose();
  owner!.destroy();
  guardian.detach();
});
