// --facts rules (issue 8, issue 15 #8/#9) and the scrub note, through the
// real CLI: `-` is stdout after everything (refused for run), the file that
// is corral's own stdout keeps its content, facts replace a file atomically,
// a symlink is never written through (facts, collect --spill, a job's
// --spill), '' is a usage error; a failed command names the variables that
// were not passed to it (names, never values), collect --json lists them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, openSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral, corralCommand } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { agentFor } from "../../support/jobs-fixture.ts";

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-facts-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const factsKeys = ["code", "durationMs", "forced", "outputComplete", "signal", "timedOut"];

test("--facts '' and run --facts - are usage errors (exit 2) and nothing runs", async (t) => {
  const dir = tempDir(t);
  const marker = path.join(dir, "ran");
  for (const args of [["run", "--facts", ""], ["collect", "--facts", ""], ["run", "--facts", "-"]]) {
    const result = await corralInProcess([...args, "--", "touch", marker]);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, /corral: --facts /);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, "one line");
    assert.equal(readdirSync(dir).length, 0, `${args.join(" ")} ran the command`);
  }
  const files = readdirSync(process.cwd()).filter((name) => name === "-");
  assert.deepEqual(files, [], "no file named - was created");
});

test("collect --facts -: the facts are the last line of stdout, after the report", async () => {
  const result = await corral(["collect", "--facts", "-", "--", "sh", "-c", "echo out; exit 4"]);
  assert.equal(result.code, 4);
  const lines = result.stdout.toString().trimEnd().split("\n");
  assert.equal(lines[0], "out");
  const facts = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
  assert.deepEqual(Object.keys(facts).sort(), factsKeys);
  assert.equal(facts["code"], 4);
});

/** Runs corral with stdout appended to `file` (`>> file`), as a shell would. */
function runAppending(file: string, args: readonly string[]): Promise<number | null> {
  const out = openSync(file, "a");
  const [command, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(command, [...prefix, ...args], { stdio: ["ignore", out, "pipe"] });
  closeSync(out);
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

test("--facts naming the file corral's stdout appends to keeps that file's content (no truncation)", async (t) => {
  const dir = tempDir(t);
  const log = path.join(dir, "log.txt");
  writeFileSync(log, "earlier line\n");
  assert.equal(await runAppending(log, ["collect", "--facts", log, "--", "echo", "from the command"]), 0);
  assert.equal(await runAppending(log, ["run", "--facts", "/dev/stdout", "--", "echo", "second"]), 0);
  const lines = readFileSync(log, "utf8").trimEnd().split("\n");
  assert.equal(lines[0], "earlier line");
  assert.equal(lines[1], "from the command");
  assert.deepEqual(Object.keys(JSON.parse(lines[2] as string) as object).sort(), factsKeys);
  assert.equal(lines[3], "second");
  assert.deepEqual(Object.keys(JSON.parse(lines[4] as string) as object).sort(), factsKeys);
  assert.equal(lines.length, 5);
});

test("--facts replaces a regular file atomically (a new inode, no temp file left)", async (t) => {
  const dir = tempDir(t);
  const facts = path.join(dir, "facts.json");
  writeFileSync(facts, "old facts\n");
  const before = statSync(facts).ino;
  const result = await corral(["run", "--facts", facts, "--", "true"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(facts, "utf8")) as object).sort(), factsKeys);
  assert.notEqual(statSync(facts).ino, before, "written to a temp file and renamed over the old one");
  assert.deepEqual(readdirSync(dir), ["facts.json"]);
});

test("a symlink is never written through: --facts, collect --spill (both backends) and a job's --spill", async (t) => {
  const dir = tempDir(t);
  const victim = path.join(dir, "victim");
  writeFileSync(victim, "precious\n");
  const link = path.join(dir, "link");
  symlinkSync(victim, link);
  const marker = path.join(dir, "ran");
  const refused = [
    { args: ["run", "--facts", link], env: {} },
    { args: ["collect", "--facts", link], env: {} },
    { args: ["collect", "--merge", "--spill", link], env: { CORRAL_GUARDIAN: "auto" } },
    { args: ["collect", "--merge", "--spill", link], env: { CORRAL_GUARDIAN: "never" } },
  ];
  for (const { args, env } of refused) {
    const result = await corral([...args, "--", "touch", marker], { env });
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, /symbolic link/);
  }
  const agent = agentFor(t, "facts-spill-link");
  const job = await agent.run(["run", "--bg", "--spill", link, "--", "touch", marker]);
  assert.notEqual(job.code, 0, "a job whose spill is a symlink is refused");
  assert.match(job.stderr, /symbolic link/);
  assert.equal(readFileSync(victim, "utf8"), "precious\n");
  assert.throws(() => statSync(marker), "nothing ran");
});

test("withheld variables are named when the command starts (never their values); --quiet silences it; collect --json lists them", async () => {
  const env = { GITHUB_TOKEN: "ghp_verysecretvalue", DB_PASSWORD: "hunter2secret", GIT_AUTHOR_NAME: "A U Thor", AWS_REGION: "eu-west-1" };
  const failed = await corral(["run", "--", "sh", "-c", 'echo "$GIT_AUTHOR_NAME/$AWS_REGION"; exit 3'], { env });
  assert.equal(failed.code, 3);
  assert.equal(failed.stdout.toString(), "A U Thor/eu-west-1\n");
  const note = failed.stderr.split("\n").filter((l) => l.startsWith("corral:"));
  assert.equal(note.length, 1, failed.stderr);
  assert.match(note[0] as string, /^corral: withheld .*DB_PASSWORD, .*GITHUB_TOKEN.* from the command \(credential-shaped; --keep-env NAME or --no-scrub passes them\)$/);
  assert.ok(!failed.stderr.includes("ghp_verysecretvalue") && !failed.stderr.includes("hunter2secret"));
  const ok = await corral(["run", "--quiet", "--", "true"], { env });
  assert.equal(ok.stderr, "", "--quiet: no line");
  const kept = await corral(["run", "--keep-env", "GITHUB_TOKEN", "--", "sh", "-c", "exit 1"], { env: { GITHUB_TOKEN: "x" } });
  assert.ok(!/GITHUB_TOKEN/.test(kept.stderr), kept.stderr);
  const json = await corral(["collect", "--json", "--", "sh", "-c", "exit 1"], { env });
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout.toString()) as { envDropped: string[] };
  assert.ok(report.envDropped.includes("GITHUB_TOKEN") && report.envDropped.includes("DB_PASSWORD"));
  assert.ok(!report.envDropped.includes("GIT_AUTHOR_NAME") && !report.envDropped.includes("AWS_REGION"));
  assert.ok(!json.stdout.toString().includes("ghp_verysecretvalue"));
});
