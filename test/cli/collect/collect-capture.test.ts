// The guardian's bounded capture (native/capture.c) against the JavaScript
// path (CORRAL_GUARDIAN=never) on the same inputs: `collect` must print the
// same head, marker and tail, the same --json fields and write the same
// spill, byte for byte, whoever kept the stream. Inputs sit at the limits
// (-1/0/+1), split UTF-8 sequences across the cuts, carry binary data and
// long lines, merge two streams, and fill the spill's disk. The cases run
// `collect` in-process (test/support/corral-in-process.ts: the same command
// line through the same application, without a runtime start-up per case);
// the grandchild and --timeout cases run the built CLI as a child, end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { locateGuardian } from "../../../lib/supervise/guardian/binary.ts";

const guardian = locateGuardian(process.env);
const skip = guardian.built ? false : `no guardian built (${guardian.why}): nothing to compare`;

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "corral-capture-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** What a run shows, minus what may differ between two runs (the duration). */
function comparable(r: { code: number | null; stdout: Buffer; stderr: string }, json: boolean): { code: number | null; stdout: string; stderr: string } {
  const stdout = json ? JSON.stringify({ ...JSON.parse(r.stdout.toString("utf8")), exit: { ...JSON.parse(r.stdout.toString("utf8")).exit, durationMs: 0 } }) : r.stdout.toString("latin1");
  return { code: r.code, stdout, stderr: r.stderr };
}

/** Runs the same collect under both backends and asserts the same result (and spill, if any). */
async function sameOnBothBackends(
  dir: string,
  label: string,
  args: readonly string[],
  argv: readonly string[],
  via: "in-process" | "cli" = "in-process",
): Promise<void> {
  const results: Record<string, { code: number | null; stdout: string; stderr: string; spill?: string[] }> = {};
  // Both backends at once: each has its own spill path, and they only wait on the child.
  await Promise.all((["always", "never"] as const).map(async (backend) => {
    const spill = args.includes("--spill") ? path.join(dir, `spill-${backend}`) : undefined;
    const withSpill = spill === undefined ? args : args.map((a) => (a === "SPILL" ? spill : a));
    // No heartbeat (CI would turn one on): with one, the stream goes through JavaScript on both.
    const words = ["collect", "--heartbeat", "off", ...withSpill, "--", ...argv];
    const env = { CORRAL_GUARDIAN: backend };
    const r = via === "cli" ? await corral(words, { env, cwd: dir }) : await corralInProcess(words, { env });
    const shown = comparable(r, args.includes("--json"));
    // The spill path is named in the output: make it the same for both.
    // Processes that outlived the command are named by pid: the pids differ between the runs.
    const samePids = (s: string) => s.replace(/"pid":\d+/g, '"pid":0').replace(/\bpid \d+/g, "pid 0");
    const same = (s: string) => samePids(spill === undefined ? s : s.split(spill).join("SPILL"));
    const files = spill === undefined
      ? undefined
      : [spill, `${spill}.stdout`, `${spill}.stderr`].map((f) => (existsSync(f) ? sha256(readFileSync(f)) : "none"));
    results[backend] = { code: shown.code, stdout: same(shown.stdout), stderr: same(shown.stderr), ...(files ? { spill: files } : {}) };
  }));
  assert.deepEqual(results.always, results.never, `${label}: the guardian's capture and the JavaScript path differ`);
}

const HEAD = 1000;
const TAIL = 3000;
const limits = ["--head-bytes", String(HEAD), "--max-bytes", String(TAIL)];

test("capture = JS path at the byte limits -1/0/+1, binary data", { skip }, async (t) => {
  const dir = tempDir(t);
  const data = randomBytes(HEAD + TAIL + 70_000);
  const sizes = [0, 1, HEAD - 1, HEAD, HEAD + 1, HEAD + TAIL - 1, HEAD + TAIL, HEAD + TAIL + 1, HEAD + TAIL + 2, data.length];
  for (const size of sizes) {
    const file = path.join(dir, `in-${size}`);
    writeFileSync(file, data.subarray(0, size));
    await sameOnBothBackends(dir, `binary ${size} bytes, plain`, limits, ["cat", file]);
    await sameOnBothBackends(dir, `binary ${size} bytes, --json`, [...limits, "--json"], ["cat", file]);
  }
});

test("capture = JS path with UTF-8 sequences split at the head and tail cuts", { skip }, async (t) => {
  const dir = tempDir(t);
  // "é" (2 bytes), "€" (3 bytes), "😀" (4 bytes) straddling the head end and the tail start.
  for (const ch of ["é", "€", "😀"]) {
    const bytes = Buffer.from(ch);
    for (let shift = 0; shift < bytes.length; shift++) {
      const filler = Buffer.alloc(HEAD - 1 - shift, "a");
      const middle = Buffer.alloc(50_000, "m\n");
      const body = Buffer.concat([filler, bytes, middle, bytes, Buffer.alloc(TAIL - 1 - shift, "z")]);
      const file = path.join(dir, `utf8-${bytes.length}-${shift}`);
      writeFileSync(file, body);
      await sameOnBothBackends(dir, `${ch} shifted ${shift}, --json`, [...limits, "--json"], ["cat", file]);
    }
  }
});

test("capture = JS path by lines: --head-lines/--tail-lines, long lines, CRLF, no final newline", { skip }, async (t) => {
  const dir = tempDir(t);
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}${i % 7 === 0 ? "\r" : ""}\n`).join("");
  const long = `${"x".repeat(10_000)}\n${"y".repeat(9000)}`; // lines longer than the windows, no LF at the end
  const inputs: Record<string, string> = { lines, long, mixed: lines + long, exact: "a\n".repeat((HEAD + TAIL) / 2) };
  for (const [name, text] of Object.entries(inputs)) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    await sameOnBothBackends(dir, `${name} plain`, [...limits, "--head-lines", "3", "--tail-lines", "4"], ["cat", file]);
    for (const lineFlags of [[], ["--head-lines", "3"], ["--tail-lines", "4"], ["--head-lines", "0", "--tail-lines", "0"], ["--tail-lines", "100000"]]) {
      await sameOnBothBackends(dir, `${name} ${lineFlags.join(" ")} --json`, [...limits, ...lineFlags, "--json"], ["cat", file]);
    }
  }
});

test("capture = JS path with both streams, separate and --merge, and with --spill", { skip }, async (t) => {
  const dir = tempDir(t);
  const out = path.join(dir, "out");
  const err = path.join(dir, "err");
  writeFileSync(out, randomBytes(200_000));
  writeFileSync(err, Array.from({ length: 5000 }, (_, i) => `warning ${i}\n`).join(""));
  // One writer after the other: the merged order is the same on every run.
  const both = ["sh", "-c", `cat "$1"; cat "$2" >&2; printf 'last out'; printf 'last err' >&2; exit 3`, "sh", out, err];
  await sameOnBothBackends(dir, "separate streams, --json", [...limits, "--json"], both);
  await sameOnBothBackends(dir, "separate streams, plain", limits, both);
  await sameOnBothBackends(dir, "--merge, --json", [...limits, "--merge", "--json"], both);
  await sameOnBothBackends(dir, "--merge, plain", [...limits, "--merge", "--tail-lines", "2"], both);
  await sameOnBothBackends(dir, "--spill, --json", [...limits, "--spill", "SPILL", "--json"], both);
  await sameOnBothBackends(dir, "--spill --merge, plain", [...limits, "--spill", "SPILL", "--merge"], both);
});

// A 1 MiB tmpfs fills up under the spill: the capture keeps the tail itself
// from there (and the byte before it), as the JavaScript path does.
const canMount = process.getuid?.() === 0 ? false : "mounting a 1 MiB tmpfs needs root";

test("capture = JS path when the spill's disk fills up", { skip: skip || canMount }, async (t) => {
  // Its own directory, unmounted before it is removed (one hook: after-hooks run in no promised order here).
  const small = mkdtempSync(path.join(tmpdir(), "corral-capture-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "corral-test-capture", small], { encoding: "utf8" });
  t.after(() => {
    if (mounted.status === 0) spawnSync("umount", ["-l", small]);
    rmSync(small, { recursive: true, force: true });
  });
  if (mounted.status !== 0) {
    t.skip(`cannot mount a tmpfs here: ${mounted.stderr.trim()}`);
    return;
  }
  const seq = ["seq", "1", "1000000"]; // 6.9 MB: the disk fills in the middle
  const cases = [
    ["--head-bytes", "64", "--max-bytes", "200"],
    ["--head-bytes", "64", "--max-bytes", "1MiB"], // a tail as large as the disk
    ["--head-bytes", "2MiB", "--max-bytes", "100"], // the disk fills inside the head
    ["--head-bytes", "10", "--max-bytes", "0"],
    ["--head-bytes", "64", "--max-bytes", "200", "--tail-lines", "3"],
  ];
  for (const limitsHere of cases) {
    for (const json of [true, false]) {
      const spill = path.join(small, "s");
      const args = [...limitsHere, ...(json ? ["--json"] : []), "--spill", spill];
      const results: Record<string, { code: number | null; stdout: string; stderr: string }> = {};
      for (const backend of ["always", "never"] as const) {
        for (const f of readdirSync(small)) rmSync(path.join(small, f));
        const r = await corralInProcess(["collect", "--heartbeat", "off", ...args, "--", ...seq], { env: { CORRAL_GUARDIAN: backend } });
        results[backend] = comparable(r, json);
      }
      assert.deepEqual(results.always, results.never, `${args.join(" ")}: the guardian's capture and the JavaScript path differ`);
      assert.match(results.always?.stderr ?? "", /no space left/, "the incomplete spill is named");
    }
  }
});

test("capture = JS path when a grandchild holds the pipe, and when --timeout ends the command", { skip }, async (t) => {
  const dir = tempDir(t);
  // The tail comes from the guardian only after the tree is gone (the pipe's EOF).
  await sameOnBothBackends(dir, "grandchild", [...limits, "--json"], ["sh", "-c", "seq 1 100000; sleep 1000 &"], "cli");
  await sameOnBothBackends(dir, "--timeout", [...limits, "--json", "--timeout", "2s"], ["sh", "-c", "seq 1 100000; exec sleep 1000"], "cli");
  await sameOnBothBackends(dir, "--timeout --spill", [...limits, "--timeout", "2s", "--spill", "SPILL"], ["sh", "-c", "seq 1 100000; exec sleep 1000"], "cli");
});
