// Idle sessions cost little: a screen nobody has read is kept as the bytes
// the program wrote (no emulator yet), and a screen read once drops its
// emulator after a short idle time; it is rebuilt exactly by replay when
// read again. The memory figures are measured by
// test/bench/pty-idle-memory.bench.ts (`npm run bench -- pty-idle-memory`).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { PtySession } from "../../../lib/pty/session.ts";
import { waitFor } from "../../support/wait.ts";
import { BASH, BASH_ENV, backends, openSession } from "../../support/pty-fixture.ts";

const COUNT = 3;

for (const backend of backends) {
  test(`[${backend}] idle shells: no emulator until read, dropped when idle again, rebuilt on demand`, async (t) => {
    const sessions: PtySession[] = [];
    for (let i = 0; i < COUNT; i++) sessions.push(await openSession(t, backend, { argv: BASH, env: BASH_ENV }));
    await waitFor(() => sessions.every((s) => s.info().outputBytes > 0), { what: "every prompt" });
    assert.ok(sessions.every((s) => !s.info().hydrated), "nobody read them: no emulator yet");
    // Some output is not yet the whole prompt (bash may write its terminal
    // modes first): the wait reads the screen, as a read would, until it is.
    for (const s of sessions) {
      assert.equal((await s.wait({ regex: "^\\$", timeoutMs: 15_000 })).fired, "regex", "the whole prompt");
      assert.equal((await s.screen()).lines[0], "$");
    }
    await waitFor(() => sessions.every((s) => !s.info().hydrated), { timeoutMs: 20_000, what: "the idle emulators to be dropped" });
    assert.equal((await sessions[0]?.screen())?.lines[0], "$", "the screen is rebuilt on demand");
  });
}
