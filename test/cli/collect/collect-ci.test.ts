// `collect` as a CI pipeline uses it (issue 12): line limits end to end,
// --live byte-exact against a plain run's spill, heartbeats, folding markers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral, corralCommand } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { fifoGate, type FifoGate } from "../../support/fifo-gate.ts";

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-ci-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join("");
/** The environment of a machine that is no CI system (the suite itself may run under one). */
const noCi = { CI: undefined, GITHUB_ACTIONS: undefined, GITLAB_CI: undefined };

interface StreamJson {
  bytes: number;
  lines: number;
  head: string;
  tail: string;
  elided: number;
  elidedLines: number;
  headLines: number;
  tailLines: number;
  cutBy: { head: string | null; tail: string | null };
}

for (const total of [9, 10, 11]) {
  test(`--head-lines 5 --tail-lines 5 on ${total} lines (limit -1, 0, +1)`, async () => {
    const args = ["collect", "--head-lines", "5", "--tail-lines", "5", "--", "seq", "1", String(total)];
    const plain = await corral(args, { env: noCi });
    assert.equal(plain.code, 0, plain.stderr);
    const json = await corral(["collect", "--json", ...args.slice(1)], { env: noCi });
    const out = (JSON.parse(json.stdout.toString()) as { stdout: StreamJson }).stdout;
    assert.equal(out.lines, total);
    if (total <= 10) {
      assert.equal(plain.stdout.toString(), seq(1, total), "nothing elided: the output is the stream");
      assert.deepEqual(out.cutBy, { head: null, tail: null });
      assert.equal(out.elidedLines, 0);
    } else {
      const marker = "[corral: 1 lines, 2 bytes elided (of 11 lines, 24 bytes; head cut by --head-lines, tail by --tail-lines); not kept]\n";
      assert.equal(plain.stdout.toString(), seq(1, 5) + marker + seq(7, 11));
      assert.deepEqual(out.cutBy, { head: "lines", tail: "lines" });
      assert.equal(out.head, seq(1, 5));
      assert.equal(out.tail, seq(7, 11));
      assert.equal(out.elidedLines, 1);
      assert.equal(out.headLines, 5);
      assert.equal(out.tailLines, 5);
    }
  });
}

test("byte limits cut on a line end, and the report says the bytes won", async () => {
  const result = await corral(["collect", "--json", "--head-bytes", "100", "--max-bytes", "100", "--tail-lines", "1000", "--", "seq", "1", "100000"], { env: noCi });
  const out = (JSON.parse(result.stdout.toString()) as { stdout: StreamJson }).stdout;
  assert.deepEqual(out.cutBy, { head: "bytes", tail: "bytes" });
  assert.match(out.head, /^1\n(\d+\n)+$/, "the head ends on a line end");
  assert.match(out.tail, /^(\d+\n)+$/);
  assert.ok(out.tail.endsWith("\n99999\n100000\n"));
  const first = Number(out.tail.split("\n")[0]);
  assert.equal(out.tail, seq(first, 100_000), "the tail starts on a whole line");
  assert.equal(out.lines, 100_000);
  assert.equal(out.elidedLines, 100_000 - out.headLines - out.tailLines);
});

test("CRLF, no trailing newline and a binary stream through the CLI", async () => {
  const crlf = await corral(["collect", "--json", "--head-lines", "1", "--tail-lines", "1", "--", "printf", "a\\r\\nb\\r\\nc\\r\\nd"], { env: noCi });
  const c = (JSON.parse(crlf.stdout.toString()) as { stdout: StreamJson }).stdout;
  assert.equal(c.head, "a\r\n");
  assert.equal(c.tail, "d");
  assert.equal(c.lines, 4);
  assert.equal(c.elidedLines, 2);
  const binary = await corral(["collect", "--json", "--head-lines", "2", "--head-bytes", "300", "--max-bytes", "300", "--", "sh", "-c", "head -c 100000 /dev/zero"], { env: noCi });
  const b = (JSON.parse(binary.stdout.toString()) as { stdout: StreamJson }).stdout;
  assert.equal(b.bytes, 100_000);
  assert.equal(b.lines, 1);
  assert.deepEqual(b.cutBy, { head: "bytes", tail: "bytes" });
  assert.equal(b.elided, 100_000 - 600);
});

test("bad line counts and heartbeats are usage errors (exit 2) naming the flag", async () => {
  for (const [flag, value] of [["--head-lines", "-1"], ["--tail-lines", "ten"], ["--heartbeat", "soon"]] as const) {
    const result = await corralInProcess(["collect", flag, value, "--", "true"], { env: noCi });
    assert.equal(result.code, 2, `${flag} ${value}`);
    assert.match(result.stderr, new RegExp(`corral: ${flag}`));
  }
});

/** Runs corral with stdout hashed as it streams (200 MB never sits in memory). */
function hashedRun(args: readonly string[]): Promise<{ code: number | null; sha: string; stderr: string }> {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...prefix, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...noCi } });
  const hash = createHash("sha256");
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => hash.update(c));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, sha: hash.digest("hex"), stderr }));
  });
}

const sha256File = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

test("--live streams 200 MB byte-identical to a plain run's spill, then the report on stderr", async (t) => {
  const dir = tempDir(t);
  const data = path.join(dir, "data");
  // Random blocks with line ends here and there: binary, and lines to count.
  const fd = openSync(data, "w");
  const block = randomBytes(1 << 20);
  for (let i = 0; i < 200; i++) {
    block[i * 997 % block.length] = 0x0a;
    writeSync(fd, block);
  }
  closeSync(fd);
  const plain = await corral(["collect", "--spill", path.join(dir, "plain"), "--", "cat", data], { env: noCi, deadlineMs: 300_000 });
  assert.equal(plain.code, 0, plain.stderr);
  const live = await hashedRun(["collect", "--live", "--spill", path.join(dir, "live"), "--", "cat", data]);
  assert.equal(live.code, 0, live.stderr);
  const expected = sha256File(path.join(dir, "plain.stdout"));
  assert.equal(live.sha, expected, "--live output is the stream, byte for byte");
  assert.equal(sha256File(path.join(dir, "live.stdout")), expected, "and the --live spill is too");
  assert.match(live.stderr, new RegExp(`^\\[corral: stdout: ${200 * (1 << 20)} bytes, \\d+ lines; full output in .*live\\.stdout\\]\\n\\[corral: stderr: 0 bytes, 0 lines`));
});

test("--live --merge --json: the stream on stdout, the JSON report on stderr", async () => {
  const result = await corral(["collect", "--live", "--merge", "--json", "--tail-lines", "1", "--", "sh", "-c", "echo out; echo err >&2; exit 3"], { env: noCi });
  assert.equal(result.code, 3);
  assert.equal(result.stdout.toString(), "out\nerr\n");
  const report = JSON.parse(result.stderr) as { output: StreamJson; exit: { code: number } };
  assert.equal(report.exit.code, 3);
  assert.equal(report.output.lines, 2);
});

const heartbeats = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("corral: heartbeat: "));

/** A gate for a quiet step, and a stderr watcher that opens it after two heartbeats. */
function quietStep(t: { after: (fn: () => void) => void }): { gate: FifoGate; openAfterTwoBeats: (stderr: string) => void } {
  const gate = fifoGate();
  t.after(() => gate.close());
  let opened = false;
  return {
    gate,
    openAfterTwoBeats(stderr) {
      if (opened || heartbeats(stderr).length < 2) return;
      opened = true;
      void gate.release();
    },
  };
}

test("--heartbeat 1s on a quiet step prints a line each second: elapsed, bytes, lines, last line", async (t) => {
  // The step stays quiet until two heartbeats were seen, however slow the machine.
  const { gate, openAfterTwoBeats } = quietStep(t);
  const result = await corral(["collect", "--heartbeat", "1s", "--", "sh", "-c", `echo working on it; read _ < ${gate.path}`], {
    env: noCi,
    onStderr: openAfterTwoBeats,
  });
  assert.equal(result.code, 0, result.stderr);
  const beats = heartbeats(result.stderr);
  assert.ok(beats.length >= 2, `expected about three heartbeats, got:\n${result.stderr}`);
  assert.match(beats[0] as string, /^corral: heartbeat: \d+s elapsed, 14 bytes, 1 line so far; last line: working on it$/);
  assert.ok(!result.stderr.includes("\x1b[K"), "no terminal status on a pipe");
  assert.equal(result.stdout.toString(), "working on it\n", "heartbeats never touch stdout");
});

test("--heartbeat with --spill on the guardian's fast path: bytes from the spill file, the last line from its end", async (t) => {
  const dir = tempDir(t);
  const { gate, openAfterTwoBeats } = quietStep(t);
  const result = await corral(["collect", "--heartbeat", "1s", "--spill", path.join(dir, "s"), "--", "sh", "-c", `echo working on it; read _ < ${gate.path}`], {
    env: noCi,
    onStderr: openAfterTwoBeats,
  });
  assert.equal(result.code, 0, result.stderr);
  const beats = heartbeats(result.stderr);
  assert.ok(beats.length >= 2, result.stderr);
  // Lines are left out when the guardian writes the file (nobody counts them while it runs).
  assert.match(beats[0] as string, /, 14 bytes, 1 line so far; last line: working on it$/);
});

test("--live --facts - is refused: stdout carries the command's output", async () => {
  const result = await corralInProcess(["collect", "--live", "--facts", "-", "--", "true"], { env: noCi });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--facts - is refused here/);
});

test("--live --heartbeat 1s: a quiet step still gets its heartbeat (the output's proof of life is only the output)", async (t) => {
  // That no heartbeat is printed while output flows is a claim about time:
  // test/bench/heartbeat-live.bench.ts measures it.
  const { gate, openAfterTwoBeats } = quietStep(t);
  const result = await corral(["collect", "--live", "--heartbeat", "1s", "--", "sh", "-c", `echo started; read _ < ${gate.path}`], {
    env: noCi,
    onStderr: openAfterTwoBeats,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.toString(), "started\n");
  assert.ok(heartbeats(result.stderr).length >= 2, result.stderr);
});

test("heartbeat: the config key sets it, off turns it off, $CI turns it on at 5m", async (t) => {
  const dir = tempDir(t);
  const config = path.join(dir, "config.yaml");
  writeFileSync(config, "heartbeat: 1s\n");
  // Both quiet steps run side by side and end together once the first has
  // shown two heartbeats: by then the second has been quiet as long, and
  // with the key's 1s it would have shown them too.
  const { gate, openAfterTwoBeats } = quietStep(t);
  const offGate = fifoGate();
  t.after(() => offGate.close());
  const step = (g: FifoGate) => ["--", "sh", "-c", `read _ < ${g.path}`];
  const offRun = corral(["collect", "--heartbeat", "off", ...step(offGate)], { env: { ...noCi, CORRAL_CONFIG: config } });
  const fromConfig = await corral(["collect", ...step(gate)], {
    env: { ...noCi, CORRAL_CONFIG: config },
    onStderr: (stderr) => {
      openAfterTwoBeats(stderr);
      if (heartbeats(stderr).length >= 2) void offGate.release();
    },
  });
  assert.ok(heartbeats(fromConfig.stderr).length >= 2, fromConfig.stderr);
  const off = await offRun;
  assert.equal(off.code, 0, off.stderr);
  assert.deepEqual(heartbeats(off.stderr), []);
  const shown = await corral(["config", "--json"], { env: { ...noCi, CI: "true" } });
  assert.equal((JSON.parse(shown.stdout.toString()) as { config: { heartbeat: unknown } }).config.heartbeat, "auto");
});

test("--group: GitHub Actions and GitLab folding markers, a plain title elsewhere", async () => {
  const step = ["collect", "--group", "unit tests", "--", "echo", "inside"];
  const github = await corral(step, { env: { ...noCi, GITHUB_ACTIONS: "true" } });
  assert.equal(github.stdout.toString(), "::group::unit tests\ninside\n::endgroup::\n");
  const gitlab = await corral(step, { env: { ...noCi, GITLAB_CI: "true" } });
  assert.match(
    gitlab.stdout.toString(),
    // deno-lint-ignore no-control-regex
    /^\x1b\[0Ksection_start:\d+:(corral_unit_tests_\d+)\[collapsed=true\]\r\x1b\[0Kunit tests\ninside\n\x1b\[0Ksection_end:\d+:\1\r\x1b\[0K\n$/,
  );
  const plain = await corral(step, { env: noCi });
  assert.equal(plain.stdout.toString(), "== unit tests ==\ninside\n");
  const json = await corral(["collect", "--json", "--group", "t", "--", "echo", "x"], { env: { ...noCi, GITHUB_ACTIONS: "true" } });
  assert.equal(JSON.parse(json.stdout.toString()).stdout.head, "x\n", "--json keeps stdout one JSON object");
  assert.equal(json.stderr, "::group::t\n::endgroup::\n");
});
