// Nothing written before the exit is lost: a program that floods the terminal
// and exits at once must have every byte on the screen (and counted) before
// its exit is reported. The guardian guarantees it (it drains the master
// before it reports the exit); node-pty is run too, as a documented best effort.
// The second test makes the race certain instead of likely: the reader (this
// process, the guardian's owner) is held back while the program fills the
// guardian's queue and the terminal and exits, so at the exit the master
// still holds bytes; a guardian that reported the exit on reaping the child
// would report it before them, every time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { scratchDir } from "../../support/scratch-dir.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const N = 300_000;
// seq prints N lines; the terminal's onlcr turns each \n into \r\n.
let expectedBytes = 0;
for (let i = 1; i <= N; i++) expectedBytes += String(i).length + 2;

for (const backend of backends) {
  test(`[${backend}] a flood then an immediate exit: every byte is parsed before the exit is reported`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", `seq 1 ${N}; printf 'last words'; exit 7`], rows: 5 });
    let bytesAtExit = -1;
    s.onExit(() => {
      bytesAtExit = s.info().outputBytes;
    });
    const r = await s.wait({ exit: true, timeoutMs: 120_000 });
    assert.equal(r.fired, "exit");
    assert.equal(r.snapshot.exit?.code, 7);
    if (backend === "node-pty" && r.snapshot.exit?.outputComplete === false) {
      t.diagnostic("node-pty reported an incomplete output at exit (its documented weakness)");
      return;
    }
    assert.equal(bytesAtExit, expectedBytes + "last words".length, "bytes received when the exit was reported");
    assert.deepEqual(r.snapshot.lines.slice(-3), [String(N - 1), String(N), "last words"]);
    assert.equal(r.snapshot.exit?.outputComplete, true);
  });
}

// Writes without blocking until the terminal has refused bytes for a second
// (its reader, the guardian, has stopped: its queue to us is full), then
// records how many it wrote and exits with bytes still in the terminal.
const FILL_AND_EXIT = [
  "import fcntl, os, sys, time",
  "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)",
  "chunk, total, refused = b'x' * 4096, 0, 0",
  "while refused < 20:",
  "    try:",
  "        total += os.write(1, chunk)",
  "        refused = 0",
  "    except BlockingIOError:",
  "        refused += 1",
  "        time.sleep(0.05)",
  "open(sys.argv[1] + '.tmp', 'w').write(str(total))",
  "os.rename(sys.argv[1] + '.tmp', sys.argv[1])",
  "os._exit(7)",
].join("\n");

/** Blocks this thread (and so every read of the guardian's socket) until `pid` is gone or a zombie. */
function holdReaderUntilGone(pid: number, timeoutMs: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let state: string;
    try {
      state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? "X";
    } catch {
      return;
    }
    if (state === "Z" || state === "X") return;
    if (Date.now() > deadline) throw new Error(`pid ${pid} still running after ${timeoutMs} ms with its reader held back`);
    Atomics.wait(pause, 0, 0, 20);
  }
}

test("[guardian] a reader held back while the program exits with bytes still in the terminal: they all come before the exit", { skip: !backends.includes("guardian") && "no guardian here" }, async (t) => {
  const dir = scratchDir(t, "corral-exit-drain-");
  const counted = path.join(dir, "written");
  const s = await openSession(t, "guardian", { argv: ["python3", "-c", FILL_AND_EXIT, counted], rows: 5 });
  let bytesAtExit = -1;
  s.onExit(() => {
    bytesAtExit = s.info().outputBytes;
  });
  holdReaderUntilGone(s.info().pid, 120_000);
  const r = await s.wait({ exit: true, timeoutMs: 120_000 });
  assert.equal(r.snapshot.exit?.code, 7);
  const written = Number(readFileSync(counted, "utf8"));
  assert.ok(written > 4 * 1024 * 1024, `the program filled the guardian's queue (wrote ${written} bytes)`);
  assert.equal(bytesAtExit, written, "every byte written was received when the exit was reported");
  assert.equal(r.snapshot.exit?.outputComplete, true, "the exit came after the terminal's last byte, not before");
});
