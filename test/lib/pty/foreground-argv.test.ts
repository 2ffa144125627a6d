// The foreground's argument list (pty screen --json's foreground.argv) is
// the process's as it is now: it follows a program that execs another in the
// same pid (even the same binary, which keeps the command name) and one that
// renames itself, at the first read after the change.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import process from "node:process";
import { backends, BASH, openSession } from "../../support/pty-fixture.ts";
import { waitFor } from "../../support/wait.ts";

const linux = process.platform === "linux";
const backend = backends[0]!;

test("the foreground's argv follows an exec of the same program in the same pid", { skip: !linux && "no /proc here" }, async (t) => {
  const second = `exec -a second-program ${BASH.join(" ")} -c "read y"`;
  const session = await openSession(t, backend, { argv: [...BASH, "-c", `read x; ${second}`], cols: 80, rows: 24 });
  const first = await waitFor(async () => {
    const foreground = await session.foreground();
    return foreground?.waitingForInput === true ? foreground : undefined;
  }, { what: "bash to wait for its line" });
  // argv[0] as the program was started (the backend may have resolved it on PATH).
  assert.match(first.argv[0] ?? "", /(^|\/)bash$/);
  assert.deepEqual(first.argv.slice(1), [...BASH.slice(1), "-c", `read x; ${second}`]);
  session.write("\r");
  // Seen in /proc directly first: the reader's very next read must show it too.
  await waitFor(() => readFileSync(`/proc/${first.pid}/cmdline`, "utf8").startsWith("second-program\0"), { what: "bash to exec" });
  const after = await session.foreground();
  assert.ok(after !== null);
  assert.equal(after.pid, first.pid, "the same process");
  assert.deepEqual(after.argv, ["second-program", "--norc", "--noprofile", "-c", "read y"]);
});

test("the foreground's argv follows a program that renames itself (process.title)", { skip: !linux && "no /proc here" }, async (t) => {
  const program = "process.stdin.once('data', () => { process.title = 'renamed-by-title'; }); setInterval(() => {}, 10000);";
  const session = await openSession(t, backend, { argv: [process.execPath, "-e", program], cols: 80, rows: 24 });
  await waitFor(async () => (await session.foreground())?.waitingForInput === true, { what: "node to wait for input" });
  assert.match((await session.foreground())?.argv.join(" ") ?? "", /setInterval/);
  session.write("\r");
  await waitFor(() => readFileSync(`/proc/${session.pid}/cmdline`, "utf8").startsWith("renamed-by-title"), { what: "node to rename itself" });
  assert.equal((await session.foreground())?.argv[0], "renamed-by-title");
});
