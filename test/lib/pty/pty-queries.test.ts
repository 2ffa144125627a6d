// A terminal query is answered whatever the session's read state: a program
// in the session writes each query split at every byte boundary (and byte
// by byte), alone or after other sequences in the same write, and reads the
// reply with a deadline. The session is never read, read once and left idle
// (its emulator dropped), past the history kept for replays, or polled by a
// reader all along. The program writes its findings to a file, so the test
// itself never reads the screen it is testing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Screen } from "../../../lib/pty/screen.ts";
import { XTVERSION_NAME } from "../../../lib/pty/terminal-queries.ts";
import type { PtySession } from "../../../lib/pty/session.ts";
import { repoRoot } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";
import { backends, openSession } from "../../support/pty-fixture.ts";

/** Each query and a pattern its reply matches (Python `re`, on bytes). */
const QUERIES: readonly { name: string; query: string; reply: string }[] = [
  { name: "DA1", query: "\x1b[c", reply: "\\x1b\\[\\?[0-9;]*c" },
  { name: "DA2", query: "\x1b[>c", reply: "\\x1b\\[>[0-9;]*c" },
  { name: "DSR 5", query: "\x1b[5n", reply: "\\x1b\\[0n" },
  { name: "DSR 6 (CPR)", query: "\x1b[6n", reply: "\\x1b\\[[0-9]+;[0-9]+R" },
  { name: "DECXCPR", query: "\x1b[?6n", reply: "\\x1b\\[\\?[0-9;]+R" },
  { name: "DECRQM", query: "\x1b[?2004$p", reply: "\\x1b\\[\\?2004;[0-4]\\$y" },
  { name: "DECRQM (ANSI)", query: "\x1b[4$p", reply: "\\x1b\\[4;[0-4]\\$y" },
  { name: "XTVERSION", query: "\x1b[>q", reply: "\\x1bP>\\|[^\\x1b]*\\x1b\\\\" },
  { name: "window size (CSI 18 t)", query: "\x1b[18t", reply: "\\x1b\\[8;[0-9]+;[0-9]+t" },
];
/** Other sequences and text before the query in the same write. */
const BEFORE = "\x1b[5;10Hab\x1b[1m";

interface Case {
  readonly name: string;
  readonly pieces: string[];
  readonly reply: string;
}

/** Every case; the first is the issue's: ESC[5;10H ESC, then "[", then "6n". */
function cases(): Case[] {
  const out: Case[] = [{ name: "the issue's CPR", pieces: ["\x1b[5;10H\x1b", "[", "6n"], reply: "\\x1b\\[5;10R" }];
  for (const q of QUERIES) {
    for (const before of ["", BEFORE]) {
      const label = `${q.name}${before === "" ? "" : " after other sequences"}`;
      out.push({ name: `${label}, whole`, pieces: [before + q.query], reply: q.reply });
      for (let cut = 1; cut < q.query.length; cut++) {
        out.push({ name: `${label}, split at ${cut}`, pieces: [before + q.query.slice(0, cut), q.query.slice(cut)], reply: q.reply });
      }
      out.push({ name: `${label}, byte by byte`, pieces: [...(before === "" ? [] : [before]), ...q.query.split("")], reply: q.reply });
    }
  }
  return out;
}

// Raw mode; each piece its own write, 20 ms apart so each arrives as its own
// read; the reply read with a deadline. One line per case in the file, then DONE.
const QUERY_PROGRAM = `
import json, os, re, select, sys, time, tty
out = open(sys.argv[1], "w", buffering=1)
spec = json.load(open(sys.argv[2]))
if spec["waitForEnter"]: sys.stdin.readline()
tty.setraw(0)
os.write(1, b"x" * spec["printFirst"] + b"\\r\\n")
pending = b""
failures = 0
for case in spec["cases"]:
    pattern = re.compile(case["reply"].encode("latin1"))
    start = time.monotonic()
    for i, piece in enumerate(case["pieces"]):
        if i > 0: time.sleep(0.02)
        os.write(1, piece.encode("latin1"))
    deadline = start + spec["deadlineSeconds"]
    match = pattern.search(pending)
    while match is None and time.monotonic() < deadline:
        if select.select([0], [], [], max(0, deadline - time.monotonic()))[0]:
            pending += os.read(0, 1024)
        match = pattern.search(pending)
    ms = int((time.monotonic() - start) * 1000)
    if match is None:
        failures += 1
        out.write("FAIL %s: no reply in %d ms, got %r\\n" % (case["name"], ms, pending))
    else:
        out.write("OK %d %s: %r\\n" % (ms, case["name"], match.group(0)))
        pending = pending[match.end():]
os.write(1, b"\\x1b[0m\\r\\nqueries done\\r\\n")
out.write("DONE %d\\n" % failures)
`;

interface Run {
  readonly lines: string[];
  readonly failures: string[];
  readonly slowest: number;
  readonly overOneSecond: number;
}

function resultsOf(file: string): Run | undefined {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n").filter((l) => l !== "");
  if (!lines.some((l) => l.startsWith("DONE "))) return undefined;
  const times = lines.filter((l) => l.startsWith("OK ")).map((l) => Number(l.split(" ")[1]));
  return {
    lines,
    failures: lines.filter((l) => l.startsWith("FAIL ")),
    slowest: Math.max(0, ...times),
    overOneSecond: times.filter((ms) => ms > 1000).length,
  };
}

async function runQueries(
  t: import("node:test").TestContext,
  backend: (typeof backends)[number],
  options: { waitForEnter?: boolean; printFirst?: number; before?: (s: PtySession) => Promise<void>; poll?: boolean },
): Promise<Run> {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-pty-queries-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const results = path.join(dir, "results.txt");
  const specFile = path.join(dir, "spec.json");
  const all = cases();
  writeFileSync(specFile, JSON.stringify({
    cases: all,
    waitForEnter: options.waitForEnter ?? false,
    printFirst: options.printFirst ?? 0,
    // Generous: a loaded machine must not fail the test; how long replies took is reported.
    deadlineSeconds: 20,
  }));
  const s = await openSession(t, backend, { argv: ["python3", "-c", QUERY_PROGRAM, results, specFile], cwd: dir, cols: 80, rows: 24 });
  await options.before?.(s);
  let polling = options.poll ?? false;
  const poller = (async () => {
    while (polling) {
      await s.screen({ peek: true });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    // Each case ends within its own deadline (a FAIL line if no reply came);
    // the minute more is for python3 and the session to start on a machine
    // running another test file beside this one (six sessions at once here).
    const run = await waitFor(() => resultsOf(results), { timeoutMs: all.length * 25_000 + 60_000, intervalMs: 100, what: "the query program's results" });
    assert.equal(run.lines.filter((l) => l.startsWith("OK ") || l.startsWith("FAIL ")).length, all.length, "a line per case");
    return run;
  } finally {
    polling = false;
    await poller;
    // Closed at once, not when the test ends: node-pty's census of what is
    // left finds processes by their terminal's path, and a later session
    // (or anything else on the machine) may have been given the same pts.
    await s.close({ force: true });
  }
}

function report(t: import("node:test").TestContext, run: Run): void {
  t.diagnostic(`${run.lines.length - 1} cases; slowest reply ${run.slowest} ms; ${run.overOneSecond} over 1 s`);
  assert.deepEqual(run.failures, [], "every query answered");
}

/** The runs' lines and figures together. */
function merged(runs: readonly Run[]): Run {
  return {
    lines: [...runs.flatMap((r) => r.lines.filter((l) => !l.startsWith("DONE "))), "DONE"],
    failures: runs.flatMap((r) => r.failures),
    slowest: Math.max(0, ...runs.map((r) => r.slowest)),
    overOneSecond: runs.reduce((n, r) => n + r.overOneSecond, 0),
  };
}

// Lazy parsing of unread screens is per session state: each case on a
// fresh session, so every one meets a screen that nobody has read yet.
const FRESH_AT_ONCE = 6;

// The fresh pass opens a session per case (105 per backend): its program is
// a relay, not python3 (a python3 start costs ~0.15 s of CPU, a sh and two
// cats a few ms). One cat copies a FIFO the test writes the pieces into onto
// the terminal, in raw mode as the query program's; the other copies what the
// terminal sends the program (the replies) into a file the test reads. The
// test still never reads the screen it is testing.
const RELAY = `stty raw -echo || exit 1; cat "$1" & : >"$3"; exec cat >"$2"`;

async function runFreshCase(t: import("node:test").TestContext, backend: (typeof backends)[number], c: Case, dir: string): Promise<Run> {
  const fifo = path.join(dir, "pieces");
  const replies = path.join(dir, "replies");
  const ready = path.join(dir, "ready");
  // Read-write, so the open never waits for the relay and the relay's cat never sees the end.
  const pieces = openSync(fifo, "r+");
  const s = await openSession(t, backend, { argv: ["sh", "-c", RELAY, "sh", fifo, replies, ready], cwd: dir, cols: 80, rows: 24 });
  try {
    await waitFor(() => existsSync(ready), { timeoutMs: 60_000, what: "the relay to start" });
    // As the query program did: a line first, and once it is on the terminal
    // the relay's cat is reading, so each piece arrives as its own read.
    writeSync(pieces, "\r\n");
    await waitFor(() => s.info().outputBytes >= 2, { timeoutMs: 60_000, what: "the relay's first line" });
    assert.equal(s.info().hydrated, false, "nobody has read the screen");
    const pattern = new RegExp(c.reply.replace(/\\x1b/g, "\x1b"));
    const start = Date.now();
    for (const [i, piece] of c.pieces.entries()) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20)); // pacing, so each piece is its own write
      writeSync(pieces, Buffer.from(piece, "latin1"));
    }
    const got = () => (existsSync(replies) ? readFileSync(replies).toString("latin1") : "");
    let match: RegExpMatchArray | null = null;
    try {
      // Generous: a loaded machine must not fail the test; how long replies took is reported.
      match = await waitFor(() => got().match(pattern) ?? undefined, { timeoutMs: 20_000, intervalMs: 10, what: `a reply to ${c.name}` });
    } catch {
      // reported as a FAIL line below, as the query program does
    }
    const ms = Date.now() - start;
    const line = match === null ? `FAIL ${c.name}: no reply in ${ms} ms, got ${JSON.stringify(got())}` : `OK ${ms} ${c.name}: ${JSON.stringify(match[0])}`;
    return { lines: [line, "DONE 0"], failures: match === null ? [line] : [], slowest: match === null ? 0 : ms, overOneSecond: match !== null && ms > 1000 ? 1 : 0 };
  } finally {
    await s.close({ force: true });
    closeSync(pieces);
  }
}

test("a screen nobody reads answers each query cut anywhere into three writes", async () => {
  const encode = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));
  let tried = 0;
  for (const q of QUERIES) {
    const reply = new RegExp(q.reply.replace(/\\x1b/g, "\x1b"));
    for (const before of ["", BEFORE, "plain text\r\n"]) {
      const full = before + q.query;
      for (let a = before.length; a <= full.length; a++) {
        for (let b = a; b <= full.length; b++) {
          const replies: string[] = [];
          const screen = await Screen.create({ cols: 80, rows: 24, onReply: (r) => replies.push(r), onPressure: () => {} });
          for (const piece of [full.slice(0, a), full.slice(a, b), full.slice(b)]) if (piece !== "") screen.feed(encode(piece));
          const pieces = JSON.stringify([full.slice(0, a), full.slice(a, b), full.slice(b)]);
          await waitFor(() => replies.length > 0, { timeoutMs: 10_000, intervalMs: 1, what: `a reply to ${q.name} written as ${pieces}` });
          assert.match(replies.join(""), reply, `${q.name} written as ${pieces}`);
          screen.dispose();
          tried++;
        }
      }
    }
  }
  assert.ok(tried > 500);
});

test("XTVERSION names corral at its package version", () => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  assert.equal(XTVERSION_NAME, `corral(${pkg.version})`);
});

for (const backend of backends) {
  test(`[${backend}] queries answered on a session nobody reads (each case on a fresh session)`, async (t) => {
    const all = cases();
    const root = mkdtempSync(path.join(tmpdir(), "corral-pty-queries-fresh-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const dirs = all.map((_, i) => path.join(root, String(i)));
    for (const dir of dirs) mkdirSync(dir);
    const made = spawnSync("mkfifo", dirs.map((dir) => path.join(dir, "pieces")), { encoding: "utf8" });
    assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
    const runs: Run[] = [];
    for (let at = 0; at < all.length; at += FRESH_AT_ONCE) {
      runs.push(...await Promise.all(all.slice(at, at + FRESH_AT_ONCE).map((c, i) => runFreshCase(t, backend, c, dirs[at + i]!))));
    }
    const run = merged(runs);
    report(t, run);
    assert.equal(run.lines.filter((l) => l.includes("XTVERSION")).every((l) => l.includes(XTVERSION_NAME)), true, "XTVERSION names corral");
    assert.ok(run.lines.some((l) => /window size.*8;24;80t/.test(l)), "CSI 18 t reports 24 rows, 80 columns");
  });

  test(`[${backend}] queries answered on a session read once and left idle (emulator dropped)`, async (t) => {
    const run = await runQueries(t, backend, {
      waitForEnter: true,
      before: async (s) => {
        await s.screen();
        await waitFor(() => !s.info().hydrated, { timeoutMs: 30_000, what: "the idle emulator to be dropped" });
        s.write("\r");
      },
    });
    report(t, run);
  });

  test(`[${backend}] queries answered after more output than a replay keeps`, async (t) => {
    report(t, await runQueries(t, backend, { printFirst: 64 * 1024 }));
  });

  test(`[${backend}] queries answered while a reader polls the screen`, async (t) => {
    report(t, await runQueries(t, backend, { poll: true }));
  });
}
