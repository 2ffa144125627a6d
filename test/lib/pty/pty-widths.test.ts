// Wide and zero-width characters as the C library's wcwidth() counts them:
// the width table agrees with libc for every code point; written raw, typed
// and edited in bash, shown in vim, the cursor lands where wcwidth says and
// the screen equals tmux's (same program, TERM and keys). Where tmux 3.3a
// itself departs from wcwidth (it joins a ZWJ sequence into one 2-column
// cell, bash counts 6), corral follows wcwidth, which is what bash draws by.
import { test } from "node:test";
import { scratchDir } from "../../support/scratch-dir.ts";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { charWidth } from "../../../lib/pty/char-width.ts";
import { libcTable, libcWidths } from "../../support/libc-wcwidth.ts";
import { TmuxReference, normalizeRows } from "../../support/tmux-reference.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

const ENV = { LANG: "C.UTF-8", LC_ALL: "C.UTF-8", PS1: "$ ", HISTFILE: "/dev/null" };

/**
 * The characters of the issue, one case each. `tmuxJoins`: tmux 3.3a departs
 * from wcwidth here. `vimOwn`: vim 9 sizes these by its own tables (regional
 * indicators two columns, U+200B/U+200D shown as <200b>), in both terminals.
 */
const CASES: readonly { name: string; text: string; tmuxJoins?: boolean; vimOwn?: boolean }[] = [
  { name: "emoji", text: "\u{1F600}\u{1F680}\u2705\u231A\u{1F44D}\u{1F970}" },
  { name: "newer emoji", text: "\u{1FAE0}\u{1F97A}" },
  { name: "flag", text: "\u{1F1FA}\u{1F1F8}", vimOwn: true },
  { name: "ZWJ sequence", text: "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}", tmuxJoins: true, vimOwn: true },
  { name: "VS16", text: "\u2764\uFE0F!" },
  { name: "CJK", text: "\u4E2D\u6587\u5B57" },
  { name: "combining", text: "e\u0301a\u0301" },
  { name: "zero-width", text: "\u200B\u200D\u0301", vimOwn: true },
];

test("the width table agrees with the C library's wcwidth for every printable code point", () => {
  const libc = libcTable();
  const differ: string[] = [];
  for (let cp = 0xa0; cp < 0x110000; cp++) {
    const c = libc[cp] as number;
    if (c === -1 && cp < 0xa0) continue;
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const want = c < 0 ? 1 : c;
    if (charWidth(cp) !== want && differ.length < 20) differ.push(`U+${cp.toString(16)}: libc ${c}, corral ${charWidth(cp)}`);
  }
  for (let cp = 0x20; cp < 0x7f; cp++) assert.equal(charWidth(cp), 1);
  assert.deepEqual(differ, [], "regenerate with: python3 test/support/wcwidth-table.py > lib/pty/wcwidth-table.ts");
});

// Writes each case at the start of a line, asks the terminal where the
// cursor is (CPR), and prints the columns on one line.
const CURSOR_PROBE = [
  "python3",
  "-c",
  [
    "import json, os, select, sys, tty",
    "cases = json.loads(sys.argv[1])",
    "tty.setraw(0)",
    "cols = []",
    "for text in cases:",
    "    os.write(1, b'\\r\\n' + text.encode())",
    "    os.write(1, b'\\x1b[6n')",
    "    reply = b''",
    "    while not reply.endswith(b'R'):",
    "        if not select.select([0], [], [], 30)[0]: break",
    "        reply += os.read(0, 64)",
    "    cols.append(int(reply.split(b';')[1][:-1]) - 1 if reply.endswith(b'R') else -1)",
    "os.write(1, ('\\r\\nCOLUMNS ' + ' '.join(map(str, cols)) + '\\r\\n').encode())",
    "os.read(0, 1)",
  ].join("\n"),
  JSON.stringify(CASES.map((c) => c.text)),
];


for (const backend of backends) {
  test(`[${backend}] written raw at line start: the cursor is where wcwidth says, the screen as tmux's`, async (t) => {
    const dir = scratchDir(t, "corral-pty-widths-");
    const tmux = new TmuxReference();
    t.after(() => tmux.kill());
    tmux.start(CURSOR_PROBE, { cols: 80, rows: 24, cwd: dir, env: ENV });
    const s = await openSession(t, backend, { argv: CURSOR_PROBE, cwd: dir, cols: 80, rows: 24, env: ENV });
    await s.wait({ regex: "COLUMNS [-0-9 ]+\\n", timeoutMs: 30_000 });
    const row = (await s.screen()).lines.find((r) => r.startsWith("COLUMNS ")) ?? "";
    const ours = row.slice(8).split(" ").map(Number);
    const libc = libcWidths(CASES.map((c) => c.text));
    assert.deepEqual(ours, libc, `cursor columns (${CASES.map((c) => c.name).join(", ")})`);
    const theirs = await waitFor(() => tmux.capture().find((row) => row.startsWith("COLUMNS ")), { timeoutMs: 30_000, what: "tmux's columns" });
    const tmuxCols = theirs.slice(8).split(" ").map(Number);
    CASES.forEach((c, i) => {
      if (!c.tmuxJoins) assert.equal(tmuxCols[i], libc[i], `tmux agrees with wcwidth on ${c.name}`);
      else t.diagnostic(`${c.name}: wcwidth ${libc[i]} columns (corral ${ours[i]}), tmux ${tmuxCols[i]}`);
    });
    const screen = normalizeRows((await s.screen()).lines);
    const skip = (rows: string[]) => rows.filter((row) => !row.startsWith("COLUMNS") && !CASES.some((c) => c.tmuxJoins && row.includes(c.text)));
    assert.deepEqual(skip(screen), skip(tmux.capture()), "the same rows as tmux");
  });

  test(`[${backend}] edited in bash (insert after, backspace over): the cursor where wcwidth says, the screen as tmux's`, async (t) => {
    const dir = scratchDir(t, "corral-pty-widths-");
    const argv = ["bash", "--norc", "--noprofile"];
    const tmux = new TmuxReference();
    t.after(() => tmux.kill());
    tmux.start(argv, { cols: 80, rows: 24, cwd: dir, env: ENV });
    const s = await openSession(t, backend, { argv, cwd: dir, cols: 80, rows: 24, env: ENV });
    await s.wait({ text: "$ ", timeoutMs: 15_000 });
    await waitFor(() => tmux.capture()[0] === "$", { timeoutMs: 15_000, what: "tmux's prompt" });
    for (const c of CASES) {
      // Each step: what to send, and where the cursor is (before the "y" typed after the case, or at the end).
      const steps: { text?: string; key?: string; atEnd: boolean; row?: string }[] = [
        { text: `echo x${c.text}y`, atEnd: true, row: `$ echo x${c.text}y` },
        { key: "Left", atEnd: false, row: `$ echo x${c.text}y` },
        { text: "Q", atEnd: false, row: `$ echo x${c.text}Qy` },
        { key: "BSpace", atEnd: false, row: `$ echo x${c.text}y` },
        { key: "BSpace", atEnd: false },
        { key: "End", atEnd: true },
        { text: "Z", atEnd: true },
        { key: "C-u", atEnd: true, row: "$" },
      ];
      for (const [i, step] of steps.entries()) {
        const before = (await s.screen({ peek: true })).hash;
        if (step.text !== undefined) {
          s.write(step.text);
          tmux.text(step.text);
        } else {
          await s.sendKeys([step.key as string]);
          tmux.keys(step.key as string);
        }
        const what = `${c.name} step ${i + 1} (${step.text ?? step.key})`;
        let last = "";
        try {
          await waitFor(async () => {
            const snap = await s.screen({ peek: true });
            const row = snap.lines[0] ?? "";
            const prefix = step.atEnd ? (row === "$" ? "$ " : row) : row.slice(0, row.lastIndexOf("y"));
            const [want] = libcWidths([prefix]);
            last = `ours ${JSON.stringify(row)} col ${snap.cursor.col} (wcwidth ${want})`;
            if (snap.hash === before || (step.row !== undefined && row !== step.row) || snap.cursor.col !== want) return false;
            if (c.tmuxJoins === true) return true;
            // tmux is asked only once ours is there: two tmux clients a poll, most of them while ours was still on its way.
            const theirs = { row: tmux.capture()[0] ?? "", cursor: tmux.cursor() };
            last += `; tmux ${JSON.stringify(theirs.row)} col ${theirs.cursor.col}`;
            return theirs.row === row && theirs.cursor.col === snap.cursor.col;
          }, { timeoutMs: 15_000, intervalMs: 50, what });
        } catch {
          assert.fail(`${what}: ${last}`);
        }
      }
    }
  });

  test(`[${backend}] shown and edited in vim: the same screen and cursor as tmux, the cursor where wcwidth says`, async (t) => {
    const dir = scratchDir(t, "corral-pty-widths-");
    writeFileSync(path.join(dir, "wide.txt"), CASES.map((c) => `a${c.text}b`).join("\n") + "\n");
    const argv = ["vim", "-u", "NONE", "-i", "NONE", "-n", "wide.txt"];
    const tmux = new TmuxReference();
    t.after(() => tmux.kill());
    tmux.start(argv, { cols: 80, rows: 24, cwd: dir, env: ENV });
    const s = await openSession(t, backend, { argv, cwd: dir, cols: 80, rows: 24, env: ENV });
    await s.wait({ regex: "wide\\.txt", timeoutMs: 15_000 });
    await s.wait({ stableMs: 300, timeoutMs: 15_000 });
    const same = async (what: string, line: number | undefined) => {
      let last = "";
      try {
        await waitFor(async () => {
          const snap = await s.screen({ peek: true });
          const ours = normalizeRows(snap.lines);
          const theirs = tmux.capture();
          const c = tmux.cursor();
          last = `ours ${snap.cursor.row},${snap.cursor.col} tmux ${c.row},${c.col}\n${ours.join("\n")}\n---\n${theirs.join("\n")}`;
          if (JSON.stringify(ours) !== JSON.stringify(theirs) || snap.cursor.row !== c.row || snap.cursor.col !== c.col) return false;
          if (line === undefined) return true;
          // `$` puts the cursor on the line's last character ("b"): after a, the case.
          const [want] = libcWidths([`a${CASES[line]?.text}`]);
          return snap.cursor.row === line && snap.cursor.col === want;
        }, { timeoutMs: 15_000, intervalMs: 50, what });
      } catch {
        assert.fail(`${what}: ${last}`);
      }
    };
    await same("start", undefined);
    for (const [i, c] of CASES.entries()) {
      const keys = i === 0 ? ["$"] : ["j", "$"];
      for (const k of keys) {
        await s.sendKeys([k]);
        tmux.keys(k);
      }
      await same(`${c.name}: $`, c.vimOwn ? undefined : i);
    }
    // Edits: delete the last character, then append after the wide ones.
    for (const keys of [["x"], ["k", "k", "$", "x"], ["g", "g", "$", "i", "Z", "Escape"]]) {
      for (const k of keys) {
        await s.sendKeys([k]);
        tmux.keys(k);
      }
      await same(`keys ${keys.join(" ")}`, undefined);
    }
    await s.sendKeys(["Escape", ":", "q", "!", "Enter"]);
  });
}
