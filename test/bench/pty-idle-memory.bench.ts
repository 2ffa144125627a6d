// What an idle session costs the process that holds it, on each backend:
// heap+external per bash session at its prompt before its screen was read,
// just after, and once the idle emulator was dropped again (the README's
// figures). test/lib/pty/pty-idle-memory.test.ts checks the behaviour (no emulator
// until read, dropped when idle, rebuilt on demand) without the numbers.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { availablePtyBackends } from "../../lib/supervise/start.ts";
import { PtySession } from "../../lib/pty/session.ts";
import { waitFor } from "../support/wait.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const COUNT = 20;
const BASH = ["bash", "--norc", "--noprofile"];
const env = { ...process.env, PS1: "$ ", HISTFILE: "/dev/null" } as Record<string, string>;
const kb = (n: number) => (n / 1024).toFixed(1);

for (const backend of await availablePtyBackends()) {
  const sessions: PtySession[] = [];
  try {
    const warm = await PtySession.open({ argv: BASH, env, backend });
    sessions.push(warm);
    if ((await warm.wait({ text: "$ ", timeoutMs: 15_000 })).fired !== "text") throw new Error("the warm-up shell never showed its prompt");
    const base = liveBytes();
    const idle: PtySession[] = [];
    for (let i = 0; i < COUNT; i++) idle.push(await PtySession.open({ argv: BASH, env, backend }));
    sessions.push(...idle);
    await waitFor(() => idle.every((s) => s.info().outputBytes > 0), { what: "every prompt" });
    const unread = (liveBytes() - base) / COUNT;
    for (const s of idle) await s.screen();
    const read = (liveBytes() - base) / COUNT;
    await waitFor(() => idle.every((s) => !s.info().hydrated), { timeoutMs: 20_000, what: "the idle emulators to be dropped" });
    const again = (liveBytes() - base) / COUNT;
    process.stdout.write(
      `${backend}: heap+external per idle bash session: ${kb(unread)} KB unread, ${kb(read)} KB just read, ` +
        `${kb(again)} KB idle again (dropped/read ${(again / Math.max(1, read)).toFixed(2)})\n`,
    );
  } finally {
    for (const s of sessions) {
      await s.close({ force: true });
      s.dispose();
    }
  }
}
