// The command table and the shared flag value parsers, in-process (no CLI
// spawned): a command line naming a command loads that command's definition
// only; a bad value is one stderr line naming the flag (exit 2 once mapped),
// printed before any action runs, and a malformed --env never echoes its text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { run, type RouteMap } from "@stricli/core";
import { buildApp } from "../../../cli/app.ts";
import type { CorralContext, CorralProcess } from "../../../cli/shared/context.ts";
import { COMMANDS, loadRoutes } from "../../../cli/registry.ts";
import { UsageError } from "../../../cli/shared/exit-status.ts";
import { parseDurationFlag, parseIntFlag, parseLineCountFlag, parseOffsetFlag, parseSizeFlag } from "../../../cli/shared/flag-parsers.ts";

/** Runs a command line through stricli with captured output; no action gets to run a process. */
async function parseOnly(args: readonly string[]): Promise<{ code: unknown; stderr: string; stdout: string }> {
  let stdout = "";
  let stderr = "";
  const sink = (add: (s: string) => void) => ({ write: (s: string | Uint8Array) => (add(String(s)), true), isTTY: false }) as unknown as NodeJS.WriteStream;
  const proc: CorralProcess = { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env: {} };
  await run(buildApp(await loadRoutes(args[0])), args, { process: proc });
  return { code: proc.exitCode, stderr, stdout };
}

const names = (routes: RouteMap<CorralContext>) => routes.getAllEntries().map((e) => e.name.original);

test("the table loads only the command named first, and the whole table otherwise", async () => {
  assert.deepEqual(names(await loadRoutes("run")), ["run"]);
  assert.deepEqual(names(await loadRoutes("pty")), ["pty"]);
  assert.deepEqual(names(await loadRoutes()), Object.keys(COMMANDS));
  assert.deepEqual(names(await loadRoutes("--help")), Object.keys(COMMANDS));
  assert.deepEqual(names(await loadRoutes("rnu")), Object.keys(COMMANDS));
  assert.deepEqual(names(await loadRoutes("toString")), Object.keys(COMMANDS), "only the table's own keys name a command");
});

const BAD_VALUES: readonly { args: string[]; line: RegExp }[] = [
  { args: ["run", "--timeout", "5x", "--", "true"], line: /^corral: --timeout: "5x" is not a duration; .*\n$/ },
  { args: ["run", "--grace", "2y", "--", "true"], line: /^corral: --grace: "2y" is not a duration; .*\n$/ },
  { args: ["collect", "--max-bytes", "12q", "--", "true"], line: /^corral: --max-bytes: "12q" is not a size; .*\n$/ },
  { args: ["collect", "--head-bytes", "x", "--", "true"], line: /^corral: --head-bytes: "x" is not a size; .*\n$/ },
  { args: ["collect", "--tail-lines", "-3", "--", "true"], line: /^corral: --tail-lines must be a number of lines \(a whole number >= 0\), not "-3"\n$/ },
  { args: ["collect", "--job", "%1", "--from", "x"], line: /^corral: --from must be a byte offset \(a whole number >= 0\), not "x"\n$/ },
  { args: ["pty", "open", "--cols", "0", "--", "sh"], line: /^corral: --cols must be a whole number from 1 to 1000, not "0"\n$/ },
  { args: ["pty", "open", "--rows", "1001", "--", "sh"], line: /^corral: --rows must be a whole number from 1 to 1000, not "1001"\n$/ },
  { args: ["pty", "screen", "s", "--scrollback", "10001"], line: /^corral: --scrollback must be a whole number from 0 to 10000, not "10001"\n$/ },
  { args: ["pty", "close", "s", "--grace", "soon"], line: /^corral: --grace: "soon" is not a duration; .*\n$/ },
  { args: ["reap", "--grace", "1y"], line: /^corral: --grace: "1y" is not a duration; .*\n$/ },
  { args: ["jobs", "wait", "--timeout", "5x"], line: /^corral: --timeout: "5x" is not a duration; .*\n$/ },
  { args: ["agent", "run", "--idle-timeout", "zz"], line: /^corral: --idle-timeout: "zz" is not a duration; .*\n$/ },
  { args: ["collect", "--heartbeat", "3q", "--", "true"], line: /^corral: --heartbeat: "3q" is not a duration; .*, or off\n$/ },
  { args: ["pty", "resize", "s", "abc", "5"], line: /^corral: COLS must be a whole number \(sizes are clamped to 1-1000\), not "abc"\n$/ },
  { args: ["pty", "resize", "s", "--cols", "80", "--rows", "-2"], line: /^corral: --rows must be a whole number \(sizes are clamped to 1-1000\), not "-2"\n$/ },
  { args: ["pty", "wait", "s", "--stable", "5x"], line: /^corral: --stable: "5x" is not a duration; .*\n$/ },
  { args: ["pty", "wait", "s", "--text", "a", "--timeout", "nope"], line: /^corral: --timeout: "nope" is not a duration; .*\n$/ },
  { args: ["pty", "send", "s", "x", "--wait-stable", "5x"], line: /^corral: --wait-stable: "5x" is not a duration; .*\n$/ },
  { args: ["pty", "open", "--record", "x.cast", "--record-max", "1023", "--", "sh"], line: /^corral: --record-max must be at least 1024 bytes, not "1023"\n$/ },
  { args: ["pty", "record", "s", "x.cast", "--max", "1q"], line: /^corral: --max: "1q" is not a size; .*\n$/ },
];

for (const { args, line } of BAD_VALUES) {
  test(`${args.join(" ")}: one line naming the flag, a usage error, nothing run`, async () => {
    const result = await parseOnly(args);
    assert.match(result.stderr, line);
    assert.equal(result.stdout, "");
    // stricli's code for a value it could not parse; cli/run-app.ts maps it to exit 2.
    assert.equal(result.code, -4);
  });
}

test("the parsers at their edges: limit-1, limit, limit+1", () => {
  const cols = parseIntFlag("--cols", 1, 1000);
  assert.throws(() => cols("0"), UsageError);
  assert.equal(cols("1"), 1);
  assert.equal(cols("1000"), 1000);
  assert.throws(() => cols("1001"), UsageError);
  const lines = parseLineCountFlag("--tail-lines");
  assert.equal(lines("0"), 0);
  assert.throws(() => lines("-1"), UsageError);
  const offset = parseOffsetFlag("--from");
  assert.equal(offset(String(Number.MAX_SAFE_INTEGER)), Number.MAX_SAFE_INTEGER);
  assert.throws(() => offset(String(Number.MAX_SAFE_INTEGER + 2)), UsageError);
  assert.equal(parseSizeFlag("--record-max", 1024)("1k"), 1024);
  assert.throws(() => parseSizeFlag("--record-max", 1024)("1023"), /--record-max must be at least 1024 bytes/);
  assert.equal(parseDurationFlag("--grace")("0"), 0);
  assert.equal(parseDurationFlag("--grace")("1h30m"), 5_400_000);
});

test("a malformed --env is refused without echoing its text (it may be a secret)", async () => {
  for (const args of [["run", "--env", "hunter2secret", "--", "true"], ["collect", "--env", "=hunter2secret", "--", "true"]]) {
    const { stderr, code } = await parseOnly(args);
    assert.match(stderr, /^corral: --env needs NAME=VALUE \(e\.g\. --env DEBUG=1\), but .*\n$/);
    assert.doesNotMatch(stderr, /hunter2/);
    assert.equal(code, -4);
  }
});
