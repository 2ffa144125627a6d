// Output that must come "later" is held back by the test, not by a sleep: the
// child blocks on `read _ < GATE` (a FIFO) and the test opens it when it is
// ready, so "later" is after whatever the test waited for, on any machine.
// (A `sleep 1` first was a guess that a loaded machine can lose.)
import { spawnSync } from "node:child_process";
import { constants, mkdtempSync, openSync, closeSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export interface FifoGate {
  /** The FIFO's path; the child runs `read _ < "$GATE"` where it must wait. */
  readonly path: string;
  /** Opens the gate: one line reaches the child's `read`; resolves once it is written. */
  release(): Promise<void>;
  /** Removes the FIFO; a release still waiting for its reader is let go. */
  close(): void;
}

export function fifoGate(): FifoGate {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-gate-"));
  const fifo = path.join(dir, "gate");
  const made = spawnSync("mkfifo", ["-m", "600", fifo], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`mkfifo ${fifo}: ${made.stderr || made.error}`);
  return {
    path: fifo,
    async release() {
      // Opening for writing waits (in libuv's thread pool, not the event
      // loop) until the child opens its end for reading.
      const writer = await open(fifo, "w");
      try {
        await writer.write("go\n");
      } finally {
        await writer.close();
      }
    },
    close() {
      // A release blocked in open() waits for a reader: be that reader, so
      // no thread is left blocked when the test ends early.
      try {
        closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
      } catch {
        // gone already
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
