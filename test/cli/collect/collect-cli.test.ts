// `corral collect` end to end: limits at their edges, byte-exact spills,
// UTF-8 across chunks, --merge, a grandchild holding the pipe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { isAlive } from "../../support/processes.ts";

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-collect-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

interface Stream {
  bytes: number;
  head: string;
  tail: string;
  elided: number;
  truncated: boolean;
  spill: string | null;
}

interface Report {
  argv: string[];
  exit: { code: number | null; signal: string | null; timedOut: boolean; forced: boolean; durationMs: number; outputComplete: boolean };
  stdout?: Stream;
  stderr?: Stream;
  output?: Stream;
}

const HEAD = 10;
const TAIL = 20;
// A stream of n distinct-looking printable bytes.
const streamOf = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 97 + (i % 26)));

for (const n of [HEAD + TAIL - 1, HEAD + TAIL, HEAD + TAIL + 1]) {
  test(`head/tail at the edge: ${n} bytes with head ${HEAD}, max ${TAIL}`, async (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, "data");
    const data = streamOf(n);
    writeFileSync(file, data);
    const limits = ["--head-bytes", String(HEAD), "--max-bytes", String(TAIL)];
    const plain = await corral(["collect", ...limits, "--", "cat", file]);
    assert.equal(plain.code, 0, plain.stderr);
    const json = await corral(["collect", "--json", ...limits, "--", "sh", "-c", `cat ${file} >&2`]);
    const report = JSON.parse(json.stdout.toString()) as Report;
    const err = report.stderr as Stream;
    assert.equal(err.bytes, n);
    assert.equal(report.stdout?.bytes, 0);
    if (n <= HEAD + TAIL) {
      assert.deepEqual(plain.stdout, data, "nothing elided: the output is the stream");
      assert.equal(err.head + err.tail, data.toString());
      assert.equal(err.elided, 0);
      assert.equal(err.truncated, false);
    } else {
      const marker = "[corral: 0 lines, 1 bytes elided (of 1 lines, 31 bytes; head cut by --head-bytes, tail by --max-bytes); not kept]";
      const expected = `${data.subarray(0, HEAD)}\n${marker}\n${data.subarray(n - TAIL)}`;
      assert.equal(plain.stdout.toString(), expected);
      assert.equal(err.head, data.subarray(0, HEAD).toString());
      assert.equal(err.tail, data.subarray(n - TAIL).toString());
      assert.equal(err.elided, 1);
      assert.equal(err.truncated, true);
    }
  });
}

test("tail only (--head-bytes 0) at max-1, max, max+1", async () => {
  for (const n of [TAIL - 1, TAIL, TAIL + 1]) {
    const data = streamOf(n).toString();
    const result = await corral(["collect", "--json", "--head-bytes", "0", "--max-bytes", String(TAIL), "--", "printf", "%s", data]);
    const out = (JSON.parse(result.stdout.toString()) as Report).stdout as Stream;
    assert.equal(out.head, "");
    assert.equal(out.tail, data.slice(Math.max(0, n - TAIL)));
    assert.equal(out.elided, Math.max(0, n - TAIL));
  }
});

test("--spill keeps binary stdout and stderr byte-identical (sha256)", async (t) => {
  const dir = tempDir(t);
  const a = randomBytes(3 * 1024 * 1024 + 17);
  const b = randomBytes(512 * 1024 + 3);
  writeFileSync(path.join(dir, "a"), a);
  writeFileSync(path.join(dir, "b"), b);
  const spill = path.join(dir, "spill");
  const result = await corral([
    "collect", "--max-bytes", "1k", "--head-bytes", "1k", "--spill", spill, "--",
    "sh", "-c", `cat ${dir}/a; cat ${dir}/b >&2`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(sha256(readFileSync(`${spill}.stdout`)), sha256(a));
  assert.equal(sha256(readFileSync(`${spill}.stderr`)), sha256(b));
  // What is shown is a prefix and a suffix (byte cuts may move back to a line end).
  const out = result.stdout;
  const marker = out.indexOf("\n[corral: ");
  assert.ok(marker > 0 && marker <= 1024);
  assert.deepEqual(out.subarray(0, marker), a.subarray(0, marker));
  assert.ok(out.includes(`; full output in ${spill}.stdout]\n`));
  assert.ok(out.length - out.indexOf("]\n", marker) - 2 <= 1024);
  assert.ok(a.subarray(a.length - 1024).toString("latin1").endsWith(out.subarray(out.indexOf("]\n", marker) + 2).toString("latin1")));
  assert.match(result.stderr, new RegExp(`bytes elided \\(of \\d+ lines, ${b.length} bytes; [^)]*\\); full output in ${spill}.stderr\\]\n`));
});

test("--merge: one pipe for fd 1 and 2, one spill file, one `output` object", async (t) => {
  const dir = tempDir(t);
  const spill = path.join(dir, "merged");
  const a = randomBytes(200_000);
  writeFileSync(path.join(dir, "a"), a);
  const fds = await corral(["collect", "--merge", "--json", "--", "sh", "-c", "readlink /proc/$$/fd/1; readlink /proc/$$/fd/2 >&2"]);
  const fdReport = JSON.parse(fds.stdout.toString()) as Report;
  const [one, two] = (fdReport.output as Stream).head.trim().split("\n");
  assert.ok(one !== undefined && one === two, `fd 1 and 2 differ: ${one} ${two}`);
  assert.equal(fdReport.stdout, undefined);
  const result = await corral([
    "collect", "--merge", "--json", "--spill", spill, "--", "sh", "-c", `echo first; cat ${dir}/a >&2; echo last`,
  ]);
  const report = JSON.parse(result.stdout.toString()) as Report;
  const expected = Buffer.concat([Buffer.from("first\n"), a, Buffer.from("last\n")]);
  assert.equal(sha256(readFileSync(spill)), sha256(expected));
  assert.equal(report.output?.bytes, expected.length);
  assert.equal(report.output?.spill, spill);
  assert.ok(report.output?.tail.endsWith("last\n"));
});

test("JSON shape and exit status mirroring", async () => {
  const result = await corral(["collect", "--json", "--", "sh", "-c", "echo out; echo err >&2; exit 5"]);
  assert.equal(result.code, 5);
  const report = JSON.parse(result.stdout.toString()) as Report;
  assert.deepEqual(Object.keys(report), ["argv", "exit", "stdout", "stderr", "envDropped"]);
  assert.deepEqual(report.argv, ["sh", "-c", "echo out; echo err >&2; exit 5"]);
  assert.deepEqual(Object.keys(report.exit), ["code", "signal", "timedOut", "forced", "durationMs", "outputComplete"]);
  assert.equal(report.exit.code, 5);
  assert.equal(report.exit.outputComplete, true);
  const stream = (text: string) => ({
    bytes: 4, lines: 1, head: text, tail: "", elided: 0, elidedLines: 0, headLines: 1, tailLines: 0,
    cutBy: { head: null, tail: null }, truncated: false, spill: null, spillError: null, invalidUtf8: 0,
  });
  assert.deepEqual(report.stdout, stream("out\n"));
  assert.deepEqual(report.stderr, stream("err\n"));
  const timed = await corral(["collect", "--json", "--timeout", "500ms", "--", "sleep", "600"]);
  assert.equal(timed.code, 124);
  assert.equal((JSON.parse(timed.stdout.toString()) as Report).exit.timedOut, true);
});

test("UTF-8: a character split across chunks, and cut by the head limit, is never mangled", async () => {
  // The child writes the euro sign's bytes in two writes (the pause only
  // makes separate chunks likely; the assertions hold either way).
  const split = await corral(["collect", "--json", "--", "sh", "-c", "printf '\\342\\202'; sleep 0.2; printf '\\254\\n'"]);
  assert.equal((JSON.parse(split.stdout.toString()) as Report).stdout?.head, "€\n");
  const text = "€".repeat(40);
  const cut = await corral(["collect", "--json", "--head-bytes", "4", "--max-bytes", "8", "--", "printf", "%s", text]);
  const out = (JSON.parse(cut.stdout.toString()) as Report).stdout as Stream;
  assert.equal(out.bytes, 120);
  assert.ok(!out.head.includes("\uFFFD") && !out.tail.includes("\uFFFD"), JSON.stringify(out));
  assert.equal(out.head, "€");
  assert.equal(out.tail, "€€");
});

test("a grandchild holding stdout: collect returns within the grace, outputComplete false, it is gone", async () => {
  const result = await corral(["collect", "--json", "--grace", "500ms", "--", "sh", "-c", "sleep 600 & echo $!; echo hi"]);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout.toString()) as Report;
  assert.equal(report.exit.outputComplete, false);
  const [pid, hi] = (report.stdout as Stream).head.trim().split("\n");
  assert.equal(hi, "hi");
  assert.equal(isAlive(Number(pid)), false);
});

test("--leave-running: the grandchild keeps running (the test kills it)", async (t) => {
  const result = await corral([
    "collect", "--json", "--grace", "500ms", "--leave-running", "--", "sh", "-c", "sleep 600 & echo $!",
  ]);
  const report = JSON.parse(result.stdout.toString()) as Report;
  const pid = Number((report.stdout as Stream).head.trim());
  t.after(() => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  });
  assert.equal(report.exit.outputComplete, false);
  assert.equal(isAlive(pid), true);
});

test("a reader that goes away (| head) ends the output quietly; the status stays the child's", async () => {
  const { spawn } = await import("node:child_process");
  const { corralCommand } = await import("../../support/corral-cli.ts");
  const script = '"$@" collect -- sh -c "seq 1 300000; exit 3" | head -n 1; echo "status=${PIPESTATUS[0]}" >&2';
  const child = spawn("bash", ["-c", script, "bash", ...corralCommand()], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  await new Promise((resolve) => child.on("close", resolve));
  assert.equal(out, "1\n");
  assert.equal(err, "status=3\n", "no stack trace, the child's status");
});
