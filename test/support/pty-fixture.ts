// Shared by the pty-*.test.ts files: sessions that are always closed when the
// test ends, the backends available here, and small programs with known output.
// A session's `wait` that ends by its timeout fails the test: a test that
// waited for text that never came must not go on as if it had (a broken
// sendKeys or TERM would otherwise pass after silent timeouts). A test that
// expects the timeout says so with `waitMayTimeout`.
import type { TestContext } from "node:test";
import type { PtyBackendName } from "../../lib/supervise/handle.ts";
import { availablePtyBackends } from "../../lib/supervise/start.ts";
import { PtySession, type PtySessionSpec } from "../../lib/pty/session.ts";
import type { WaitCondition, WaitResult } from "../../lib/pty/session-wait.ts";

/** Backends these tests run against on this machine. */
export const backends: readonly PtyBackendName[] = await availablePtyBackends();

/** A bash with no rc files and a fixed prompt, so screens are predictable. */
export const BASH = ["bash", "--norc", "--noprofile"];
export const BASH_ENV = { PS1: "$ ", HISTFILE: "/dev/null" };

/** A session whose `wait` throws when its timeout fires; `waitMayTimeout` is the plain wait. */
export type TestSession = PtySession & {
  waitMayTimeout(cond: WaitCondition, signal?: AbortSignal): Promise<WaitResult>;
};

/** The error a wait that timed out fails its test with: what was awaited and the screen. */
export class WaitTimedOut extends Error {
  constructor(cond: WaitCondition, result: WaitResult) {
    const asked = Object.entries(cond).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
    super(`the wait (${asked}) timed out; the screen:\n${result.snapshot.lines.join("\n")}`);
    this.name = "WaitTimedOut";
  }
}

/** Opens a session that is force-closed when the test ends; its waits must not time out. */
export async function openSession(
  t: TestContext,
  backend: PtyBackendName,
  spec: Omit<PtySessionSpec, "env" | "backend"> & { env?: Record<string, string> },
): Promise<TestSession> {
  const session = await PtySession.open({ ...spec, env: { ...process.env, ...spec.env }, backend });
  t.after(async () => {
    await session.close({ force: true });
    session.dispose();
  });
  const plain = session.wait.bind(session);
  const strict = async (cond: WaitCondition, signal?: AbortSignal): Promise<WaitResult> => {
    const result = await plain(cond, signal);
    if (result.fired === "timeout") throw new WaitTimedOut(cond, result);
    return result;
  };
  return Object.assign(session, { wait: strict, waitMayTimeout: plain });
}

/** A Python program that puts its terminal in raw mode and prints each read as repr(bytes). */
export const BYTE_ECHO = [
  "python3",
  "-c",
  [
    "import os, sys, tty",
    "tty.setraw(0)",
    "if len(sys.argv) > 1: os.write(1, sys.argv[1].encode())",
    "os.write(1, b'ready\\r\\n')",
    "while True:",
    "    b = os.read(0, 256)",
    "    if b == b'q': break",
    "    os.write(1, (repr(b) + '\\r\\n').encode())",
  ].join("\n"),
];
