// Shared by the pty-*.test.ts files: sessions that are always closed when the
// test ends, the backends available here, and small programs with known output.
import type { TestContext } from "node:test";
import type { PtyBackendName } from "../../lib/supervise/handle.ts";
import { availablePtyBackends } from "../../lib/supervise/start.ts";
import { PtySession, type PtySessionSpec } from "../../lib/pty/session.ts";

/** Backends these tests run against on this machine. */
export const backends: readonly PtyBackendName[] = await availablePtyBackends();

/** A bash with no rc files and a fixed prompt, so screens are predictable. */
export const BASH = ["bash", "--norc", "--noprofile"];
export const BASH_ENV = { PS1: "$ ", HISTFILE: "/dev/null" };

/** Opens a session that is force-closed when the test ends. */
export async function openSession(
  t: TestContext,
  backend: PtyBackendName,
  spec: Omit<PtySessionSpec, "env" | "backend"> & { env?: Record<string, string> },
): Promise<PtySession> {
  const session = await PtySession.open({ ...spec, env: { ...process.env, ...spec.env }, backend });
  t.after(async () => {
    await session.close({ force: true });
    session.dispose();
  });
  return session;
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
