// Real interactive programs driven through the session API: the python3
// REPL (readline, raw mode), top (full-screen redraws, alternate screen),
// and a flood (`yes`) nobody reads, whose screen is still the latest when read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

for (const backend of backends) {
  test(`[${backend}] python3 REPL: type, evaluate, history with Up, exit with C-d`, async (t) => {
    const s = await openSession(t, backend, { argv: ["python3", "-q"], env: { PYTHONSTARTUP: "", PYTHONNOUSERSITE: "1" } });
    assert.equal((await s.wait({ text: ">>> ", timeoutMs: 15_000 })).fired, "text", "the first prompt");
    // After the position the input went in at: the answer may arrive before
    // the wait starts (on a loaded machine it often does), and still counts.
    const at = s.write("6 * 7\r");
    const r = await s.wait({ regex: "^42$", after: at, timeoutMs: 10_000 });
    assert.equal(r.fired, "regex");
    // Keys once the next prompt is drawn: readline puts the terminal in raw
    // mode before it draws the prompt. An Up typed earlier, while python still
    // ran the line, is echoed as ^[[A by the cooked terminal and lost.
    assert.equal((await s.wait({ text: ">>>", after: r.match?.position ?? at, timeoutMs: 10_000 })).fired, "text", "the next prompt");
    // Up brings back the line (readline redraws it after the new prompt);
    // only output after the key counts, so the first echo does not.
    const up = await s.sendKeys(["Up"]);
    assert.equal((await s.wait({ text: "6 * 7", after: up, timeoutMs: 10_000 })).fired, "text", "Up recalled the line");
    assert.equal((await s.wait({ regex: "^>>> 6 \\* 7$[\\s\\S]*^>>> 6 \\* 7$", timeoutMs: 10_000 })).fired, "regex", "the recalled line redrawn");
    // C-a goes to the start of the line: "2 + " lands before "6 * 7".
    await s.sendKeys(["C-a"]);
    s.write("2 + ");
    const enter = await s.sendKeys(["Enter"]);
    const sum = await s.wait({ regex: "^-?\\d+$|Error", after: enter, timeoutMs: 10_000 });
    assert.equal(sum.match?.text, "44", "Up recalled 6 * 7 and C-a put 2 + before it");
    // C-d once the next prompt is drawn: readline has the terminal raw again.
    // Typed while python still ran the line (terminal in cooked mode), the
    // line discipline keeps ^D as an end-of-file mark, which readline, raw
    // again, reads as a NUL: python did not exit (seen once at load 5).
    assert.equal((await s.wait({ regex: "^44\\n>>>", timeoutMs: 10_000 })).fired, "regex", "the prompt after 44");
    await s.sendKeys(["C-d"]);
    const exit = await s.wait({ exit: true, timeoutMs: 10_000 });
    assert.equal(exit.fired, "exit");
    assert.equal(exit.snapshot.exit?.code, 0);
  });

  test(`[${backend}] top: full-screen redraws, resize, q quits`, async (t) => {
    const s = await openSession(t, backend, { argv: ["top", "-d", "0.5"], cols: 100, rows: 30, env: { HOME: "/nonexistent-corral-home" } });
    // The whole first frame: its summary line and, drawn after it, the
    // column header (on a loaded machine the wait can see the one without
    // the other).
    const r = await s.wait({ regex: "^top - .*load average[\\s\\S]*PID +USER", timeoutMs: 15_000 });
    assert.equal(r.fired, "regex");
    assert.match(r.snapshot.lines.join("\n"), /PID +USER/);
    assert.equal(r.snapshot.size.cols, 100);
    // top redraws every half second: the clock moves, so the hash does too.
    const first = await s.screen();
    await waitFor(async () => (await s.screen()).changed, { what: "top to redraw" });
    assert.notEqual((await s.screen({ peek: true })).hash, first.hash);
    s.resize(60, 15);
    assert.equal((await s.wait({ stableMs: 100, timeoutMs: 15_000 })).fired, "stable", "top settles after the resize");
    assert.equal((await s.screen()).lines.length, 15);
    await s.sendKeys(["q"]);
    const exit = await s.wait({ exit: true, timeoutMs: 10_000 });
    assert.equal(exit.snapshot.exit?.code, 0);
  });

  test(`[${backend}] a yes flood nobody reads, then a read sees the latest screen`, async (t) => {
    const s = await openSession(t, backend, { argv: ["sh", "-c", "yes corral-flood-line"] });
    assert.equal((await s.wait({ text: "corral-flood-line", timeoutMs: 10_000 })).fired, "text", "the flood shows");
    // The memory this costs over a fixed window is measured by
    // test/bench/pty-flood-memory.bench.ts; here the flood only has to be big.
    await waitFor(() => s.info().outputBytes > 5e6, { timeoutMs: 60_000, what: "5 MB of flood" });
    const screen = await s.screen();
    // Every row is a whole line except the cursor's, which the flood may be halfway through.
    const last = screen.lines.at(-1) ?? "";
    assert.ok(screen.lines.slice(0, -1).every((row) => row === "corral-flood-line"), screen.lines.join("|"));
    assert.ok("corral-flood-line".startsWith(last), last);
    await s.close({ graceMs: 1000 });
    assert.equal(isAlive(s.pid), false);
  });
}
