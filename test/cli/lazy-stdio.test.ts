// cli/lazy-stdio.ts writes straight to a descriptor that is no terminal and
// hands over to the real stream when the descriptor cannot take more now:
// every byte must arrive, in order, on a blocking pipe and on a
// non-blocking one (EAGAIN) that is full before its reader reads a byte,
// under Node, Deno and Bun.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { programUnderEachRuntime } from "../support/runtime-program.ts";

const program = path.join(repoRoot, "test", "support", "lazy-stdio-writer.ts");
const RUNTIMES: Record<string, string[]> = programUnderEachRuntime(program);

// The reader: a pipe (non-blocking on the writer's side when asked), the
// writer started on it, and not a byte read until the pipe is full (or the
// writer is gone), so the writer surely meets a full pipe.
const READER_PY = `
import array, fcntl, hashlib, json, os, select, subprocess, sys, termios, time
argv, nonblocking = json.loads(sys.argv[1])
r, w = os.pipe()
if nonblocking: os.set_blocking(w, False)
child = subprocess.Popen(argv, stdout=w, stderr=subprocess.PIPE)
os.close(w)
deadline = time.monotonic() + 100
try:
    size = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ
    while time.monotonic() < deadline and child.poll() is None:
        n = array.array("i", [0]); fcntl.ioctl(r, termios.FIONREAD, n)
        if n[0] >= size: break
        time.sleep(0.01)
    full = child.poll() is None
    data = bytearray()
    while True:
        left = deadline - time.monotonic()
        if left <= 0: sys.exit("the writer did not finish in time")
        if not select.select([r], [], [], left)[0]: continue
        chunk = os.read(r, 1 << 16)
        if not chunk: break
        data += chunk
    status = child.wait(timeout=max(1, deadline - time.monotonic()))
finally:
    # A writer that hangs must not outlive the test.
    if child.poll() is None:
        child.kill()
        child.wait()
err = child.stderr.read().decode(errors="replace")
print(json.dumps({"status": status, "full": full, "bytes": len(data), "sha": hashlib.sha256(data).hexdigest(), "stderr": err[-2000:]}))
`;

function expected(): { bytes: number; sha: string } {
  let text = "";
  for (let i = 0; i < 64; i++) text += `${String(i).padStart(8, "0")}${"x".repeat(64 * 1024 - 9)}\n`;
  text += "end\n";
  return { bytes: Buffer.byteLength(text), sha: createHash("sha256").update(text).digest("hex") };
}

for (const [name, argv] of Object.entries(RUNTIMES)) {
  for (const nonblocking of [false, true]) {
    test(`lazy stdout under ${name}: every byte in order on a full ${nonblocking ? "non-blocking" : "blocking"} pipe`, { timeout: 180_000 }, (t) => {
      if (!existsSync(argv[0]!)) {
        t.skip(`${name} is not installed (npm ci installs it)`);
        return;
      }
      if (name === "deno" && nonblocking) {
        // Deno's own process.stdout throws on a full non-blocking pipe (WouldBlock from
        // Deno.stdout.writeSync, Deno 2.9): the stream this hands over to cannot take it either.
        t.skip("Deno's process.stdout fails on a full non-blocking pipe (before this change too)");
        return;
      }
      const py = spawnSync("python3", ["-c", READER_PY, JSON.stringify([argv, nonblocking])], { cwd: repoRoot, encoding: "utf8", timeout: 170_000 });
      if ((py.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
        t.skip("python3 is needed to hold the pipe full (CI installs it)");
        return;
      }
      assert.equal(py.error, undefined, "the writer and its reader finished in time");
      assert.equal(py.status, 0, py.stderr);
      const seen = JSON.parse(py.stdout) as { status: number; full: boolean; bytes: number; sha: string; stderr: string };
      assert.equal(seen.status, 0, seen.stderr);
      assert.ok(seen.full, "the writer met a full pipe");
      assert.deepEqual({ bytes: seen.bytes, sha: seen.sha }, expected());
    });
  }
}

// Listeners added while writes go straight to the descriptor reach the real stream when it takes over.
for (const [name, argv] of Object.entries(programUnderEachRuntime(path.join(repoRoot, "test", "support", "lazy-stdio-epipe.ts")))) {
  test(`lazy stdout under ${name}: an "error" listener added before the first write hears the EPIPE of a reader gone`, { timeout: 60_000 }, (t) => {
    if (!existsSync(argv[0]!)) {
      t.skip(`${name} is not installed (npm ci installs it)`);
      return;
    }
    // The reader end closed before the writer starts: its first write fails.
    const py = spawnSync("python3", ["-c", "import json, os, subprocess, sys\nr, w = os.pipe()\nos.close(r)\np = subprocess.run(json.loads(sys.argv[1]), stdout=w, stderr=subprocess.PIPE, timeout=50)\nsys.stdout.write(p.stderr.decode())", JSON.stringify(argv)], { cwd: repoRoot, encoding: "utf8", timeout: 55_000 });
    if ((py.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      t.skip("python3 is needed (CI installs it)");
      return;
    }
    assert.equal(py.status, 0, py.stderr);
    assert.deepEqual(JSON.parse(py.stdout.trim().split("\n").pop()!), { heard: ["EPIPE"] }, py.stdout);
  });
}
