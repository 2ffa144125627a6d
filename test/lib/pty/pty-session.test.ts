// PtySession on each backend (guardian, node-pty): screen, waits, keys,
// terminal replies, exit and close.
// Longer than 300 lines because it follows one session's whole life, each
// case run on every backend; to be split by concern when the tests mirror
// lib/ (issue 10).
import { test } from "node:test";
import { scratchDir } from "../../support/scratch-dir.ts";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { SpawnError } from "../../../lib/supervise/spawn-error.ts";
import { UnknownKeyError } from "../../../lib/pty/keys.ts";
import { PtySession } from "../../../lib/pty/session.ts";
import { isAlive } from "../../support/processes.ts";
import { fifoGate } from "../../support/fifo-gate.ts";
import { waitFor } from "../../support/wait.ts";
import { BASH, BASH_ENV, BYTE_ECHO, backends, openSession } from "../../support/pty-fixture.ts";

for (const backend of backends) {
  test(`[${backend}] bash: open, send, wait, screen`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV, cols: 60, rows: 10 });
    assert.match(s.id, /^s\d+$/);
    assert.ok(s.pid > 0);
    const first = await s.wait({ text: "$ ", timeoutMs: 10_000 });
    assert.equal(first.fired, "text");
    const at = s.write("echo $((6 * 7))");
    await s.sendKeys(["Enter"]);
    // After the input's position, not --new: the answer may arrive before
    // the wait begins on a loaded machine.
    const r = await s.wait({ text: "42", after: at, timeoutMs: 10_000 });
    assert.equal(r.fired, "text");
    assert.equal((await s.wait({ regex: "^42\\n\\$ $", timeoutMs: 10_000 })).fired, "regex", "the prompt after the answer");
    const screen = await s.screen();
    assert.deepEqual(screen.lines.slice(0, 3), ["$ echo $((6 * 7))", "42", "$"]);
    assert.equal(screen.lines.length, 10);
    assert.deepEqual(screen.size, { cols: 60, rows: 10 });
    assert.deepEqual(screen.cursor, { row: 2, col: 2, visible: true });
    assert.equal(screen.alive, true);
    assert.equal(screen.exit, null);
    assert.equal(screen.alternateScreen, false);
    assert.match(screen.hash, /^[0-9a-f]{16}$/);
  });

  test(`[${backend}] changed follows the last read; info() and since never consume it`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    assert.equal((await s.wait({ text: "$ ", timeoutMs: 10_000 })).fired, "text", "the prompt");
    const a = await s.screen();
    assert.equal(a.changed, true, "the first read is a change");
    const b = await s.screen();
    assert.equal(b.changed, false);
    assert.equal(b.hash, a.hash);
    s.write("x");
    assert.equal((await s.wait({ text: "$ x", timeoutMs: 10_000 })).fired, "text", "the typed x");
    s.info();
    assert.equal((await s.screen({ peek: true })).changed, true, "a peek sees the change");
    assert.equal((await s.screen({ since: b.hash, peek: true })).changed, true);
    const c = await s.screen();
    assert.equal(c.changed, true, "listing and peeking did not consume the change");
    assert.equal((await s.screen()).changed, false);
    assert.equal((await s.screen({ since: a.hash })).changed, true, "since compares with the given hash");
    assert.equal((await s.screen({ since: c.hash })).changed, false);
    // Output that redraws the same thing is no change: erase the x and type it again.
    await s.sendKeys(["BSpace", "x"]);
    assert.equal((await s.wait({ stableMs: 200, timeoutMs: 10_000 })).fired, "stable", "the redraw settled");
    assert.equal((await s.screen()).changed, false);
    const resized = s.resize(40, 5);
    assert.deepEqual(resized, { cols: 40, rows: 5 });
    const d = await s.screen();
    assert.equal(d.changed, true, "a resize is a change");
    assert.deepEqual(d.size, { cols: 40, rows: 5 });
    assert.equal(d.lines.length, 5);
    assert.deepEqual(s.resize(0, 5000), { cols: 1, rows: 1000 }, "sizes are clamped to 1..1000");
  });

  test(`[${backend}] a colour change alone changes the hash`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    assert.equal((await s.wait({ text: "$ ", timeoutMs: 10_000 })).fired, "text", "the prompt");
    s.write("clear; printf 'item'; read x; clear; printf '\\033[7mitem\\033[m'; read x\r");
    assert.equal((await s.wait({ regex: "^item$", timeoutMs: 10_000 })).fired, "regex", "the plain item");
    const plain = await s.screen();
    s.write("\r");
    assert.equal((await s.wait({ stableMs: 300, timeoutMs: 10_000 })).fired, "stable", "the inverse item settled");
    const inverse = await s.screen();
    assert.deepEqual(inverse.lines, plain.lines, "same text");
    assert.notEqual(inverse.hash, plain.hash);
    assert.equal(inverse.changed, true);
  });

  test(`[${backend}] wait: text that appears after the wait began, a timeout, and --new`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    const gate = fifoGate();
    t.after(() => gate.close());
    assert.equal((await s.wait({ text: "$ ", timeoutMs: 10_000 })).fired, "text");
    // "late" is printed only once the test opens the gate.
    s.write(`read _ < ${gate.path}; echo late\r`);
    assert.equal((await s.wait({ regex: "; echo late$", timeoutMs: 10_000 })).fired, "regex");
    // Both waits start from here, so "late" counts however late the second begins.
    const mark = s.position;
    const early = await s.waitMayTimeout({ text: "late", after: mark, timeoutMs: 100 });
    assert.equal(early.fired, "timeout", "the echo of the command does not count as new");
    const waiting = s.wait({ text: "late", after: mark, timeoutMs: 10_000 });
    await gate.release();
    const late = await waiting;
    assert.equal(late.fired, "text");
    assert.ok(late.snapshot.lines.includes("late"));
    // Already on the screen: satisfied at once without --new, never with it.
    assert.equal((await s.wait({ text: "late", timeoutMs: 10_000 })).fired, "text");
    const none = await s.waitMayTimeout({ text: "late", newOnly: true, timeoutMs: 200 });
    assert.equal(none.fired, "timeout");
    assert.equal(none.snapshot.alive, true);
    // The prompt already showing does not satisfy --new; the next one does.
    s.write("true\r");
    assert.equal((await s.wait({ regex: "\\$ true\\n\\$ $", timeoutMs: 10_000 })).fired, "regex");
    const again = s.write("echo again\r");
    const prompt = await s.wait({ regex: "^again$", after: again, timeoutMs: 10_000 });
    assert.equal(prompt.fired, "regex");
  });

  test(`[${backend}] after the input's position, the echo does not satisfy an anchored pattern`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    assert.equal((await s.wait({ text: "$ ", timeoutMs: 10_000 })).fired, "text");
    // No pause between send and wait: the echo usually arrives after the wait began.
    const at = s.write("echo ma''rker; echo marker\r");
    const r = await s.wait({ regex: "^marker", after: at, timeoutMs: 10_000 });
    assert.equal(r.fired, "regex");
    assert.ok(r.snapshot.lines.includes("marker"), JSON.stringify(r.match) + r.snapshot.lines.join("|"));
  });

  test(`[${backend}] --new is not fooled by an echo still being drawn when the wait begins`, async (t) => {
    // A line editor that echoes one key at a time, then prints the last word.
    const slowEcho = [
      "import os, time, tty",
      "tty.setraw(0)",
      "os.write(1, b'> ')",
      "line = b''",
      "while True:",
      "    for c in os.read(0, 256):",
      "        if c == 13:",
      "            time.sleep(0.3)",
      "            os.write(1, b'\\r\\n' + line.split()[-1] + b'\\r\\n> ')",
      "            line = b''",
      "        else:",
      "            os.write(1, bytes([c]))",
      "            line += bytes([c])",
      "            time.sleep(0.05)",
    ].join("\n");
    const s = await openSession(t, backend, { argv: ["python3", "-c", slowEcho] });
    assert.equal((await s.wait({ text: "> ", timeoutMs: 10_000 })).fired, "text");
    const at = s.write("say done\r");
    assert.equal((await s.wait({ text: "> sa", timeoutMs: 10_000 })).fired, "text");
    // The echo "say done" is output after the input too: a line-anchored
    // pattern tells the answer apart.
    const r = await s.wait({ regex: "^done", after: at, timeoutMs: 10_000 });
    assert.equal(r.fired, "regex");
    assert.deepEqual(r.snapshot.lines.slice(0, 2), ["> say done", "done"], "fired by the output, not by the echo");
  });

  test(`[${backend}] wait: stable, exit, abort, bad conditions`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "echo one; read x; echo two; exit 3"] });
    assert.equal((await s.wait({ text: "one", timeoutMs: 10_000 })).fired, "text");
    const stable = await s.wait({ stableMs: 200, timeoutMs: 10_000 });
    assert.equal(stable.fired, "stable");
    assert.equal(stable.snapshot.lines[0], "one");
    const controller = new AbortController();
    const pending = s.wait({ text: "never", timeoutMs: 60_000 }, controller.signal);
    controller.abort(new Error("client went away"));
    await assert.rejects(pending, /client went away/);
    await assert.rejects(s.wait({ timeoutMs: 100 }), /needs a condition/);
    await assert.rejects(s.wait({ regex: "(", timeoutMs: 100 }), /not a valid RE2 regular expression/);
    s.write("\r");
    const exit = await s.wait({ exit: true, text: "never", timeoutMs: 10_000 });
    assert.equal(exit.fired, "exit");
    assert.equal(exit.snapshot.alive, false);
    assert.equal(exit.snapshot.exit?.code, 3);
    assert.equal(exit.snapshot.lines[2], "two", "every byte before the exit is on the screen");
    assert.equal((await s.wait({ exit: true, timeoutMs: 100 })).fired, "exit", "an exited session satisfies exit at once");
  });

  test(`[${backend}] --stable: identical redraws are stable, a changing screen is not`, async (t) => {
    const same = await openSession(t, backend, { argv: ["sh", "-c", "printf 'same screen\\033[H'; while :; do printf '\\033[H'; done"] });
    await same.wait({ text: "same screen", timeoutMs: 10_000 });
    const r = await same.wait({ stableMs: 300, timeoutMs: 15_000 });
    assert.equal(r.fired, "stable", "output keeps coming but nothing visible changes");
    await same.close({ force: true }); // its flood would run on through the next wait
    // A new number every 20 ms or so, not a flood: what is checked is that a
    // screen that keeps changing is never stable, and a flood for the whole
    // wait cost two cores for four seconds per backend.
    const moving = await openSession(t, backend, { argv: ["sh", "-c", "i=0; while :; do i=$((i+1)); printf '\\033[H%s' $i; sleep 0.02; done"] });
    await moving.wait({ regex: "^\\d+", timeoutMs: 10_000 });
    // A full second without a visible change: a loaded machine may starve the counter (or
    // the agent's parsing) for a few hundred milliseconds, which is stable by definition.
    assert.equal((await moving.waitMayTimeout({ stableMs: 1000, timeoutMs: 4000 })).fired, "timeout");
  });

  test(`[${backend}] an idle screen drops its emulator and is rebuilt exactly, without answering twice`, async (t) => {
    const s = await openSession(t, backend, { argv: [...BYTE_ECHO, "\x1b]0;idle title\x07\x1b[31mred\x1b[m\x1b[?25l\x1b[3;5H\x1b[6n"], cols: 50, rows: 8 });
    assert.equal((await s.wait({ text: "b'\\x1b[3;5R'", timeoutMs: 10_000 })).fired, "text");
    s.resize(60, 10);
    await s.sendKeys(["Up"]);
    assert.equal((await s.wait({ text: "b'\\x1b[A'", timeoutMs: 10_000 })).fired, "text");
    const before = await s.screen();
    assert.equal(s.info().hydrated, true);
    await waitFor(() => !s.info().hydrated, { timeoutMs: 15_000, what: "the idle emulator to be dropped" });
    const after = await s.screen();
    assert.equal(after.hash, before.hash);
    assert.deepEqual(after, { ...before, changed: false }, "the rebuilt screen is the same screen");
    assert.equal(s.info().hydrated, true);
    // The cursor report was answered once, when the program asked; not again by the replay.
    await s.sendKeys(["Down"]);
    const r = await s.wait({ text: "b'\\x1b[B'", timeoutMs: 10_000 });
    assert.equal(r.snapshot.lines.filter((row) => row.includes("R'")).length, 1, r.snapshot.lines.join("|"));
  });

  test(`[${backend}] an unknown key sends nothing`, async (t) => {
    const s = await openSession(t, backend, { argv: BYTE_ECHO });
    assert.equal((await s.wait({ text: "ready", timeoutMs: 10_000 })).fired, "text");
    await assert.rejects(s.sendKeys(["a", "Bogus", "b"]), (e: unknown) => e instanceof UnknownKeyError && e.key === "Bogus");
    assert.throws(() => s.checkKeys(["Enter", "Nope"]), UnknownKeyError);
    await s.sendKeys(["z"]);
    assert.equal((await s.wait({ text: "b'z'", timeoutMs: 10_000 })).fired, "text");
    const screen = await s.screen();
    assert.deepEqual(screen.lines.slice(0, 3), ["ready", "b'z'", ""], "only the z after the refused keys arrived");
  });

  test(`[${backend}] named keys and application-cursor mode reach the program as bytes`, async (t) => {
    const s = await openSession(t, backend, { argv: BYTE_ECHO });
    assert.equal((await s.wait({ text: "ready", timeoutMs: 10_000 })).fired, "text");
    // Each answer after the position the keys went in at: only the program's
    // echo of these very bytes counts.
    for (const [key, echoed] of [["Up", "b'\\x1b[A'"], ["C-c", "b'\\x03'"], ["F5", "b'\\x1b[15~'"]] as const) {
      const at = await s.sendKeys([key]);
      const r = await s.wait({ text: echoed, after: at, timeoutMs: 10_000 });
      assert.equal(r.match?.text, echoed, `${key} reached the program as ${echoed}`);
    }
    const app = await openSession(t, backend, { argv: [...BYTE_ECHO, "\x1b[?1h"] });
    await app.wait({ text: "ready", timeoutMs: 10_000 });
    const at = await app.sendKeys(["Up", "Home"]);
    await app.wait({ text: "b'\\x1bOA\\x1bOH'", after: at, timeoutMs: 10_000 });
    const lines = (await app.screen()).lines;
    assert.equal(lines[1], "b'\\x1bOA\\x1bOH'", `application-cursor keys arrived as SS3, nothing else: ${lines.join("|")}`);
  });

  test(`[${backend}] terminal replies (cursor position report) reach the program`, async (t) => {
    const s = await openSession(t, backend, { argv: [...BYTE_ECHO, "\x1b[3;5H\x1b[6n"] });
    const r = await s.wait({ text: "b'\\x1b[3;5R'", timeoutMs: 10_000 });
    assert.equal(r.fired, "text");
  });

  test(`[${backend}] title, hidden cursor, alternate screen, scrollback`, async (t) => {
    const s = await openSession(t, backend, {
      argv: ["sh", "-c", "seq 1 40; printf '\\033]0;my title\\007\\033[?25l'; read x; printf '\\033[?1049hALT'; read x"],
      rows: 10,
      scrollback: 100,
    });
    assert.equal((await s.wait({ text: "40", timeoutMs: 10_000 })).fired, "text");
    assert.equal((await s.wait({ stableMs: 100, timeoutMs: 10_000 })).fired, "stable");
    const a = await s.screen({ scrollback: 5 });
    assert.equal(a.title, "my title");
    assert.equal(a.cursor.visible, false);
    assert.equal(a.lines[0], "32");
    assert.deepEqual(a.scrollback, ["27", "28", "29", "30", "31"]);
    assert.equal((await s.screen()).scrollback, undefined, "scrollback only when asked");
    s.write("\r");
    const alt = await s.wait({ text: "ALT", timeoutMs: 10_000 });
    assert.equal(alt.snapshot.alternateScreen, true);
  });

  test(`[${backend}] a crash: exit facts, and the screen stays readable`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "echo about to crash; kill -SEGV $$"] });
    const r = await s.wait({ exit: true, timeoutMs: 10_000 });
    assert.equal(r.fired, "exit");
    assert.equal(r.snapshot.exit?.signal, "SIGSEGV");
    assert.equal(r.snapshot.exit?.code, null);
    assert.equal(r.snapshot.exit?.outputComplete, true);
    assert.equal((await s.screen()).lines[0], "about to crash");
    assert.equal(s.info().alive, false);
    assert.throws(() => s.write("x"), /has exited/);
    let notified = 0;
    s.onExit(() => notified++);
    assert.equal(notified, 1, "an exit listener added late still hears it");
    assert.equal((await s.close()).signal, "SIGSEGV", "closing an exited session returns its facts");
  });

  test(`[${backend}] a program that exits by itself: what it left running is terminated`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "trap '' HUP; sleep 1000 & echo left $!; exit 4"] });
    const r = await s.wait({ exit: true, timeoutMs: 15_000 });
    assert.equal(r.snapshot.exit?.code, 4);
    const left = Number(/left (\d+)/.exec(r.snapshot.lines.join("\n"))?.[1]);
    assert.ok(left > 0);
    t.after(() => {
      if (isAlive(left)) process.kill(left, "SIGKILL");
    });
    await waitFor(() => !isAlive(left), { timeoutMs: 15_000, what: `the leftover sleep ${left} to be terminated` });
    assert.equal((await s.close()).code, 4, "close afterwards returns the same facts");
    assert.equal((await s.screen()).lines[0], `left ${left}`, "the screen stays readable");
  });

  test(`[${backend}] close: SIGHUP first, idempotent, tree gone`, async (t) => {
    const s = await openSession(t, backend, { argv: BASH, env: BASH_ENV });
    assert.equal((await s.wait({ text: "$ ", timeoutMs: 10_000 })).fired, "text");
    s.write("sleep 1000 & echo bg $!\r");
    s.write("setsid sh -c 'echo detached $$; exec sleep 1001' &\r");
    const r = await s.wait({ regex: "bg (\\d+)[\\s\\S]*detached (\\d+)", timeoutMs: 10_000 });
    const pids = /bg (\d+)[^]*detached (\d+)/.exec(r.snapshot.lines.join("\n"))?.slice(1).map(Number) ?? [];
    assert.equal(pids.length, 2);
    t.after(() => {
      for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    });
    for (const pid of pids) assert.ok(isAlive(pid));
    const [a, b] = [s.close({ graceMs: 2000 }), s.close({ graceMs: 2000 })];
    const facts = await a;
    assert.equal(await b, facts, "a second close gets the same facts");
    assert.equal(facts.signal, "SIGHUP");
    assert.equal(isAlive(s.pid), false);
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} left running`);
  });

  test(`[${backend}] close: a program ignoring SIGHUP and SIGTERM is killed after the grace`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "trap '' HUP TERM; echo armoured; while :; do sleep 1; done"] });
    assert.equal((await s.wait({ text: "armoured", timeoutMs: 10_000 })).fired, "text");
    const facts = await s.close({ graceMs: 200 });
    assert.equal(facts.signal, "SIGKILL");
    assert.equal(facts.forced, true);
    assert.equal(isAlive(s.pid), false);
  });

  test(`[${backend}] close --force kills at once`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "trap '' HUP TERM; echo armoured; while :; do sleep 1; done"] });
    assert.equal((await s.wait({ text: "armoured", timeoutMs: 10_000 })).fired, "text");
    const facts = await s.close({ force: true, graceMs: 60_000 });
    assert.equal(facts.forced, true);
    await waitFor(() => !isAlive(s.pid), { what: "the program gone" });
  });
}

test("open refuses what cannot start, with typed errors and nothing left running", async (t) => {
  const dir = scratchDir(t, "corral-pty-");
  const script = path.join(dir, "not-executable.sh");
  writeFileSync(script, "echo hi\n", { mode: 0o644 });
  const env = { ...process.env };
  await assert.rejects(PtySession.open({ argv: ["corral-no-such-program"], env }), (e: unknown) => e instanceof SpawnError && e.failure === "not-found" && /corral-no-such-program/.test(e.message));
  await assert.rejects(PtySession.open({ argv: [script], env }), (e: unknown) => e instanceof SpawnError && e.failure === "not-executable");
  await assert.rejects(PtySession.open({ argv: ["sh"], env, cwd: path.join(dir, "missing") }), (e: unknown) => e instanceof SpawnError && e.failure === "bad-cwd");
  await assert.rejects(PtySession.open({ argv: [], env }), (e: unknown) => e instanceof SpawnError && e.failure === "not-found");
});

test("TERM defaults to xterm-256color whatever the caller's env says; --term overrides", async (t) => {
  const backend = backends[0] ?? "node-pty";
  const s = await openSession(t, backend, { argv: ["sh", "-c", "echo term=$TERM.; read x"], env: { TERM: "dumb" } });
  const r = await s.wait({ regex: "^term=.*\\.$", timeoutMs: 10_000 });
  assert.equal(r.match?.text, "term=xterm-256color.", "the caller's TERM=dumb is not the session's");
  const v = await openSession(t, backend, { argv: ["sh", "-c", "echo term=$TERM.; read x"], term: "vt100" });
  const rv = await v.wait({ regex: "^term=.*\\.$", timeoutMs: 10_000 });
  assert.equal(rv.match?.text, "term=vt100.");
});
