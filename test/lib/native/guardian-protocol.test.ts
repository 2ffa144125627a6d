// The frame decoder fuzzed on both sides (issue 3): random, truncated and
// oversized frames into the TS FrameDecoder, and into a live guardian's
// socket (the sanitizer build, so a memory error fails the test): no crash,
// no hang, a clear protocol error, a clean close. Also the token check, the
// one-owner rule and reconnecting with the token.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { FrameDecoder, FrameError, encodeFrame } from "../../../lib/core/frame.ts";
import { connectGuardian } from "../../../lib/supervise/guardian/launch.ts";
import { Ev, Req, decodeJson, encodeRequest, type GuardianErrorEvent } from "../../../lib/supervise/guardian/protocol.ts";
import { buildGuardian, startGuardian, tempDir } from "../../support/guardian-fixture.ts";
import { isAlive } from "../../support/processes.ts";
import { seededRandom } from "../../support/seeded-random.ts";
import { waitFor } from "../../support/wait.ts";

const bin = buildGuardian();
const sanitizerEnv = { ...process.env, ASAN_OPTIONS: "abort_on_error=1:detect_leaks=1", UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1" };

test("TS decoder: random, truncated and oversized input gives frames or a FrameError, nothing else", { timeout: 120_000 }, () => {
  for (let round = 0; round < 3000; round++) {
    const decoder = new FrameDecoder(1 + (round % 300));
    let wire: Uint8Array = randomBytes(Math.floor(Math.random() * 600));
    if (round % 3 === 0) wire = encodeFrame(round % 256, randomBytes(round % 200)).subarray(0, Math.floor(Math.random() * 210));
    try {
      for (let at = 0; at < wire.length;) {
        const step = 1 + Math.floor(Math.random() * 64);
        for (const frame of decoder.push(wire.subarray(at, at + step))) {
          assert.ok(frame.body.length + 1 <= decoder.maxPayloadBytes);
        }
        at += step;
      }
      decoder.end();
    } catch (error) {
      assert.ok(error instanceof FrameError, String(error));
    }
  }
});

/** A guardian started by hand (no client), so raw connections can be thrown at it. */
async function rawGuardian(t: import("node:test").TestContext, extra: string[] = []) {
  const dir = tempDir(t);
  const socketPath = path.join(dir, "g.sock");
  const token = randomBytes(16).toString("hex");
  const child = spawn(bin.asan, ["--socket", socketPath, "--ready-fd", "3", "--grace", "0", ...extra, "--", "sleep", "1000"], {
    env: { ...sanitizerEnv, CORRAL_GUARDIAN_TOKEN: token },
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exit;
  });
  await new Promise<void>((resolve) => (child.stdio[3] as NodeJS.ReadableStream).once("data", () => resolve()));
  return { socketPath, token, exit, stderr: () => stderr, pid: child.pid as number };
}

/** Sends bytes on a fresh connection, half-closes, returns the error events received before the guardian closed it. */
function throwAt(socketPath: string, chunks: Uint8Array[], end = true): Promise<{ errors: GuardianErrorEvent[]; tags: number[] }> {
  return new Promise((resolve, reject) => {
    const decoder = new FrameDecoder(8 * 1024 * 1024);
    const errors: GuardianErrorEvent[] = [];
    const tags: number[] = [];
    const socket = net.createConnection({ path: socketPath }, () => {
      for (const c of chunks) socket.write(c);
      if (end) socket.end();
    });
    socket.on("data", (c: Buffer) => {
      try {
        for (const f of decoder.push(c)) {
          tags.push(f.tag);
          if (f.tag === Ev.error) errors.push(decodeJson<GuardianErrorEvent>(f.body));
        }
      } catch (e) {
        reject(e);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ errors, tags }));
  });
}

test("guardian (sanitizer build): random bytes before auth are refused and closed; the owner can still connect", { timeout: 120_000 }, async (t) => {
  const g = await rawGuardian(t);
  for (let round = 0; round < 60; round++) {
    const junk = round % 4 === 0 ? encodeFrame(Math.floor(Math.random() * 256), randomBytes(round)) : randomBytes(1 + Math.floor(Math.random() * 300));
    await throwAt(g.socketPath, [junk]);
  }
  const oversized = await throwAt(g.socketPath, [new Uint8Array([0xff, 0xff, 0xff, 0xff, 1])]);
  assert.equal(oversized.errors[0]?.code, "oversized");
  const badToken = await throwAt(g.socketPath, [encodeFrame(Req.auth, new TextEncoder().encode("not-the-token-at-all"))]);
  assert.equal(badToken.errors[0]?.code, "bad-token");
  const owner = connectGuardian(g.socketPath, g.token);
  const welcome = await owner.ready;
  assert.equal(welcome.pid, g.pid);
  const started = await owner.started;
  // Nothing is written: the refusal comes at accept, and a write racing it would reset the socket (EPIPE).
  const busy = await throwAt(g.socketPath, [], false);
  assert.equal(busy.errors[0]?.code, "busy", "a second owner is refused");
  const receipt = await owner.shutdown(0);
  assert.equal(receipt.status, "confirmed");
  assert.equal(await g.exit, 0, g.stderr());
  assert.equal(g.stderr(), "");
  assert.equal(isAlive(started.pid), false);
});

test("guardian (sanitizer build): random frames from an authenticated owner end in a clean close and cleanup", { timeout: 120_000 }, async (t) => {
  const random = seededRandom();
  for (let round = 0; round < 20; round++) {
    // Replay: CORRALTEST_FUZZ_SEED=<seed> (the input of every round follows from it).
    const at = `round ${round}, seed ${random.seed}`;
    const g = await rawGuardian(t);
    const chunks: Uint8Array[] = [encodeFrame(Req.auth, new TextEncoder().encode(g.token))];
    for (let k = 0; k < 1 + (round % 7); k++) {
      let tag = random.below(12);
      if (tag === Req.release) tag = 0x7f; // release would leave `sleep` running on purpose
      if (tag === Req.terminate || tag === Req.shutdown) {
        chunks.push(encodeFrame(tag, encodeRequest.idGrace(k, random.below(50))));
      } else {
        chunks.push(encodeFrame(tag, random.bytes(random.below(12))));
      }
    }
    if (round % 3 === 0) chunks.push(encodeFrame(0x99, random.bytes(10)).subarray(0, 7)); // truncated at the end
    const result = await throwAt(g.socketPath, chunks);
    assert.equal(result.tags[0], Ev.welcome, `${at}: tags ${JSON.stringify(result.tags)}`);
    for (const e of result.errors) assert.match(e.code, /^(unknown-tag|bad-body|truncated)$/, at);
    assert.equal(await g.exit, 0, `${at}: ${g.stderr()}`);
    assert.equal(g.stderr(), "", at);
  }
});

test("guardian (sanitizer build): an owner still writing after its protocol error gets every frame, then EOF, no reset", { timeout: 120_000 }, async (t) => {
  // The guardian used to close at once after the error frame: the owner's next write got EPIPE
  // (or its unread input reset the connection), and Node dropped the frames it had not read yet,
  // the welcome too. Now it half-closes and drops what still comes until the owner's EOF.
  for (let round = 0; round < 5; round++) {
    const g = await rawGuardian(t);
    const result = await new Promise<{ tags: number[]; errors: GuardianErrorEvent[]; failure: string | null }>((resolve) => {
      const decoder = new FrameDecoder(8 * 1024 * 1024);
      const tags: number[] = [];
      const errors: GuardianErrorEvent[] = [];
      let failure: string | null = null;
      let wrote = false;
      const socket = net.createConnection({ path: g.socketPath }, () => {
        socket.write(encodeFrame(Req.auth, new TextEncoder().encode(g.token)));
        socket.write(encodeFrame(0x7e, new Uint8Array(3))); // unknown tag: the protocol error
      });
      socket.on("data", (c: Buffer) => {
        for (const f of decoder.push(c)) {
          tags.push(f.tag);
          if (f.tag === Ev.error) errors.push(decodeJson<GuardianErrorEvent>(f.body));
        }
        // The error frame is here: the guardian is closing. Keep writing, as a busy owner would.
        if (errors.length > 0 && !wrote) {
          wrote = true;
          socket.write(encodeFrame(Req.input, new Uint8Array(4096)), () => socket.end());
        }
      });
      socket.on("error", (e) => (failure = e.message));
      socket.on("close", () => resolve({ tags, errors, failure }));
    });
    assert.equal(result.failure, null, `round ${round}: the owner's socket failed`);
    assert.equal(result.tags[0], Ev.welcome, `round ${round}: tags ${JSON.stringify(result.tags)}`);
    assert.deepEqual(result.errors.map((e) => e.code), ["unknown-tag"], `round ${round}`);
    assert.equal(await g.exit, 0, g.stderr());
    assert.equal(g.stderr(), "", `round ${round}`);
  }
});

test("reconnect: with a linger the guardian waits for its owner to come back with the token", { timeout: 120_000 }, async (t) => {
  const g = startGuardian(t, { argv: ["sleep", "1000"], mode: "pipe", lingerMs: 60_000 }, bin.asan);
  const started = await g.started;
  g.detach();
  await g.closed;
  const again = connectGuardian(g.reconnectPath, g.token);
  const welcome = await again.ready;
  assert.deepEqual(welcome.child, started);
  assert.equal(isAlive(started.pid), true, "the child survived the owner's absence");
  await again.signal("SIGTERM");
  assert.deepEqual(await again.exited, { code: null, signal: 15, core: false });
  await again.shutdown(0);
  await waitFor(async () => (await g.processExit)?.code === 0, { what: "the guardian to exit" });
});
