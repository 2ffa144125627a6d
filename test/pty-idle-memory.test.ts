// Idle sessions cost little: a screen nobody has read is kept as the bytes
// the program wrote, and a screen read once drops its emulator after a
// short idle time (it is rebuilt exactly by replay when read again).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { PtySession } from "../lib/pty/session.ts";
import { waitFor } from "./support/wait.ts";
import { BASH, BASH_ENV, backends, openSession } from "./pty-fixture.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const COUNT = 20;

for (const backend of backends) {
  test(`[${backend}] ${COUNT} idle shells: memory per session before and after their screens were read`, async (t) => {
    const warm = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    await warm.wait({ text: "$ ", timeoutMs: 15_000 });
    const base = liveBytes();
    const sessions: PtySession[] = [];
    for (let i = 0; i < COUNT; i++) sessions.push(await openSession(t, backend, { argv: BASH, env: BASH_ENV }));
    await waitFor(() => sessions.every((s) => s.info().outputBytes > 0), { what: "every prompt" });
    const unread = (liveBytes() - base) / COUNT;
    assert.ok(sessions.every((s) => !s.info().hydrated), "nobody read them: no emulator yet");
    for (const s of sessions) assert.equal((await s.screen()).lines[0], "$");
    const read = (liveBytes() - base) / COUNT;
    await waitFor(() => sessions.every((s) => !s.info().hydrated), { timeoutMs: 20_000, what: "the idle emulators to be dropped" });
    const idle = (liveBytes() - base) / COUNT;
    const kb = (n: number) => (n / 1024).toFixed(1);
    t.diagnostic(`heap+external per session: ${kb(unread)} KB unread, ${kb(read)} KB just read, ${kb(idle)} KB idle again`);
    assert.ok(idle < read / 2, "dropping the emulator frees most of it");
    assert.ok(idle < 80 * 1024, `${kb(idle)} KB per idle session`);
    assert.equal((await sessions[0]?.screen())?.lines[0], "$", "the screen is rebuilt on demand");
  });
}
