import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral, corralCommand, runtime } from "../support/corral-cli.ts";
import { CORRAL_VERSION } from "../../cli/shared/version.ts";

test(`corral --version under ${runtime}`, async () => {
  const result = await corral(["--version"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.toString().trim(), CORRAL_VERSION);
});

test(`an unknown flag is a usage error (2) under ${runtime}`, async () => {
  const result = await corral(["--no-such-flag"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--no-such-flag/);
});

test(`an error line piped to a script has no colour escapes under ${runtime}`, async () => {
  // Deno's node:tty reported colour for pipes too, and stricli coloured the line.
  const result = await corral(["run", "--timeout", "5x", "--", "true"]);
  assert.equal(result.code, 2);
  assert.ok(!result.stderr.includes("\u001b"), `no escapes in ${JSON.stringify(result.stderr)}`);
  assert.match(result.stderr, /^corral: --timeout: "5x" is not a duration/);
});

// The context's streams are set up on first use (cli/lazy-stdio.ts), and the
// colour question is answered from fstat(2) where the descriptor surely is
// no terminal: a terminal must still get colour, a file and /dev/null none.
test(`an error line is coloured on a terminal, not in a file, under ${runtime}`, { timeout: 120_000 }, (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-colour-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const argv = [...corralCommand(), "run", "--timeout", "5x", "--", "true"];
  const quoted = argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const file = path.join(dir, "stderr.txt");
  const toFile = spawnSync("sh", ["-c", `${quoted} >/dev/null 2>"$0"`, file], { encoding: "utf8", timeout: 60_000 });
  assert.equal(toFile.status, 2, toFile.stderr);
  const written = readFileSync(file, "utf8");
  assert.match(written, /^corral: --timeout: "5x" is not a duration/);
  assert.ok(!written.includes("\u001b"), `no escapes in the file: ${JSON.stringify(written)}`);
  // util-linux script(1): the command on a pseudo-terminal, its output on script's stdout.
  // Without $CI: Node's colour depth (which stricli asks) says 2 colours, none, under a CI of no known vendor.
  const terminalEnv = { ...process.env, TERM: "xterm-256color", NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TEAMCITY_VERSION: undefined };
  const onTerminal = spawnSync("script", ["-qec", quoted, "/dev/null"], { encoding: "utf8", timeout: 60_000, env: terminalEnv });
  if (onTerminal.error !== undefined) {
    t.skip(`script(1) could not run: ${onTerminal.error.message}`);
    return;
  }
  assert.equal(onTerminal.status, 2, onTerminal.stdout);
  assert.match(onTerminal.stdout, /--timeout: "5x" is not a duration/, onTerminal.stdout);
  assert.ok(onTerminal.stdout.includes("\u001b["), `colour on a terminal: ${JSON.stringify(onTerminal.stdout)}`);
});
