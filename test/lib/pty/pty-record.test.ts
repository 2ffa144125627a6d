// Recordings (`pty open --record`, `pty record`) are asciicast v2 files that
// asciinema plays back to the very screen corral had at the end: the file
// is fed through `asciinema cat` into a fresh emulator of the recorded size
// and compared cell by cell (text, colours, attributes) with `pty screen`.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent } from "../../support/agent-harness.ts";
import { asciinemaCat, haveAsciinema, playInto, readCast } from "../../support/cast-playback.ts";
import type { ScreenView } from "../../../lib/agent/protocol/messages.ts";
import { waitFor } from "../../support/wait.ts";

const agent = privateAgent("record");
after(() => agent.stop());
const noAsciinema = !haveAsciinema && "asciinema or script not installed (Debian: asciinema, bsdutils)";
const quiet = ["--env", "PYTHONSTARTUP=", "--env", "PYTHONNOUSERSITE=1", "--env", "HOME=/nonexistent-corral-home"];

/** The final screen, once the session's recording file is complete (closed with everything in it). */
async function screenOf(session: string): Promise<ScreenView> {
  return await waitFor(async () => {
    const screen = (JSON.parse(await agent.ok(["pty", "screen", session, "--json", "--styles"])) as { screen: ScreenView }).screen;
    return screen.recording?.complete === true ? screen : undefined;
  }, { what: `the recording of session ${session} to be complete` });
}

/** The recording, played by asciinema, shows exactly the final screen. */
async function assertPlaysBackTo(file: string, final: ScreenView): Promise<void> {
  const cast = readCast(file);
  assert.equal(cast.header.version, 2);
  const played = await playInto(asciinemaCat(file), cast.header.width, cast.header.height);
  assert.deepEqual(played.rows, final.lines, "text of every row");
  assert.deepEqual(played.styles, final.styles, "colours and attributes of every cell");
  assert.deepEqual(played.cursor, { row: final.cursor.row, col: final.cursor.col }, "cursor");
}

test("vim editing a file: the recording plays back to the final screen", { skip: noAsciinema }, async () => {
  const file = path.join(agent.dir, "vim.cast");
  writeFileSync(path.join(agent.dir, "notes.txt"), "first line\n");
  const id = (await agent.ok([
    "pty", "open", "--record", file, "--cols", "70", "--rows", "15", ...quiet, "--cwd", agent.dir, "--",
    "vim", "-u", "NONE", "-N", "-i", "NONE", "-n", "-c", "syntax on", "-c", "set ft=sh", "-c", "set ttimeout ttimeoutlen=10", "notes.txt",
  ])).trim();
  await agent.ok(["pty", "wait", id, "--text", "first line", "--timeout", "20s"]);
  await agent.ok(["pty", "send", id, "Go# a comment", "--key", "Enter", "--key", "Escape"]);
  await agent.ok(["pty", "send", id, 'oecho "quoted" $HOME', "--key", "Escape"]);
  await agent.ok(["pty", "wait", id, "--text", 'echo "quoted"', "--timeout", "20s"]);
  // Without ttimeoutlen vim waits a whole second after Escape (is it a key
  // code?) before it leaves insert mode and redraws: a 300 ms quiet screen
  // was not yet its last (seen once in CI).
  await agent.ok(["pty", "wait", id, "--stable", "1s", "--timeout", "20s"]);
  // vim waits for keys and draws nothing: the screen now is the screen when the recording stops.
  const shown = (JSON.parse(await agent.ok(["pty", "screen", id, "--json", "--styles"])) as { screen: ScreenView }).screen;
  const stopped = JSON.parse(await agent.ok(["pty", "record", id, "--stop", "--json"])) as { recording: { complete: boolean } };
  assert.equal(stopped.recording.complete, true, "--stop answers once the file is closed");
  const final = (JSON.parse(await agent.ok(["pty", "screen", id, "--json", "--styles"])) as { screen: ScreenView }).screen;
  assert.equal(final.hash, shown.hash, "vim drew nothing while the recording stopped");
  await agent.ok(["pty", "close", id, "--force"]);
  assert.ok(final.styles?.some((runs) => runs.some((run) => run.fg !== null && run.text.includes("# a comment"))), "syntax colours are on the screen");
  const cast = readCast(file);
  assert.equal(cast.header.width, 70);
  assert.equal(cast.header.height, 15);
  assert.equal(cast.header.env.TERM, "xterm-256color");
  assert.match(cast.header.title, /^vim -u NONE -N .* -c 'syntax on' .*notes\.txt$/);
  assert.ok(cast.events.every(([time, code]) => typeof time === "number" && code === "o"), "output events only without --record-input");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  await assertPlaysBackTo(file, final);
});

test("python3 with --record-input: input events, and the playback matches", { skip: noAsciinema }, async () => {
  const file = path.join(agent.dir, "python.cast");
  const id = (await agent.ok(["pty", "open", "--record", file, "--record-input", ...quiet, "--", "python3", "-q"])).trim();
  await agent.ok(["pty", "wait", id, "--text", ">>> ", "--timeout", "20s"]);
  await agent.ok(["pty", "send", id, "print('\\x1b[1;32m' + 'green' * 3 + '\\x1b[0m')", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--text", "greengreengreen", "--timeout", "20s"]);
  await agent.ok(["pty", "send", id, "exit()", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--exit", "--timeout", "20s"]);
  const final = await screenOf(id);
  const cast = readCast(file);
  const inputs = cast.events.filter(([, code]) => code === "i").map(([, , data]) => data).join("");
  assert.equal(inputs, "print('\\x1b[1;32m' + 'green' * 3 + '\\x1b[0m')\rexit()\r");
  assert.ok(final.styles?.some((runs) => runs.some((run) => run.bold && run.fg === 2 && run.text === "greengreengreen")));
  await assertPlaysBackTo(file, final);
});

test("pty record on an open session: starts with the screen as it is", { skip: noAsciinema }, async () => {
  const file = path.join(agent.dir, "late.cast");
  const id = (await agent.ok(["pty", "open", "--cols", "60", "--rows", "10", "--", "bash", "--norc", "--noprofile"])).trim();
  await agent.ok(["pty", "send", id, "printf '\\e[44;97mbefore\\e[0m\\n'", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--regex", "^before$", "--timeout", "20s"]);
  assert.equal((await agent.ok(["pty", "record", id, file])).trim(), file);
  await agent.ok(["pty", "send", id, "printf '\\e[7mafter\\e[0m\\n'", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--regex", "^after$", "--timeout", "20s"]);
  await agent.ok(["pty", "resize", id, "50", "10"]);
  await agent.ok(["pty", "send", id, "exit", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--exit", "--timeout", "20s"]);
  const final = await screenOf(id);
  const cast = readCast(file);
  assert.equal(cast.header.width, 60);
  assert.ok(cast.events.some(([, code, data]) => code === "r" && data === "50x10"), "the resize is an r event");
  // Played at its last size (asciinema cat does not resize): what the session showed at the end.
  const played = await playInto(asciinemaCat(file), 50, 10);
  assert.deepEqual(played.rows, final.lines);
  assert.deepEqual(played.styles, final.styles);
  assert.equal(final.recording?.path, file);
  assert.equal(final.recording?.active, false);
  assert.equal(final.recording?.bytes, statSync(file).size);
});

test("a flood stays within --record-max and ends with a marker; pty screen --json says so", async () => {
  const file = path.join(agent.dir, "flood.cast");
  const max = 64 * 1024;
  const id = (await agent.ok(["pty", "open", "--record", file, "--record-max", "64k", "--", "sh", "-c", "yes 'flood line' | head -c 20000000; echo done"])).trim();
  await agent.ok(["pty", "wait", id, "--exit", "--timeout", "120s"]);
  const screen = await screenOf(id);
  assert.equal(screen.recording?.stopped, "max");
  assert.equal(screen.recording?.maxBytes, max);
  assert.ok(statSync(file).size <= max, `file ${statSync(file).size} bytes, bound ${max}`);
  const cast = readCast(file);
  const last = cast.events[cast.events.length - 1];
  assert.equal(last?.[1], "m");
  assert.match(String(last?.[2]), /--record-max 65536/);
  assert.ok(statSync(file).size > max / 2, "the recording used its room");
  assert.ok(readFileSync(file, "utf8").endsWith("\n"));
});

test("bad recording values: exit 2 with one line, nothing opened", async () => {
  const small = await agent.run(["pty", "open", "--record", "x.cast", "--record-max", "10", "--", "true"]);
  assert.equal(small.code, 2);
  assert.match(small.stderr, /--record-max must be at least 1024 bytes/);
  const alone = await agent.run(["pty", "open", "--record-input", "--", "true"]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /go with --record FILE/);
  const nowhere = await agent.run(["pty", "open", "--record", path.join(agent.dir, "no", "such", "dir.cast"), "--", "true"]);
  assert.equal(nowhere.code, 2);
  assert.match(nowhere.stderr, /cannot write the recording .*ENOENT/);
  assert.equal(nowhere.stderr.trim().split("\n").length, 1);
});
