// lib/proc/proc-file.ts: a kept descriptor answers as a fresh open would
// (the text made anew at each read), never grows the descriptor table, reads
// past one 4 KiB chunk, and lets go once the process is reaped.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { once } from "node:events";
import { test } from "node:test";
import { ProcFile } from "../../../lib/proc/proc-file.ts";
import { parseStat } from "../../../lib/proc/stat.ts";
import { waitFor } from "../../support/wait.ts";

const openDescriptors = () => readdirSync("/proc/self/fd").length;

test("a kept /proc descriptor reads what a fresh open reads, state changes included, with one descriptor however many reads", { skip: process.platform !== "linux" && "Linux only" }, async () => {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  const pid = child.pid as number;
  const stat = new ProcFile(`/proc/${pid}/stat`);
  try {
    await waitFor(() => parseStat(pid, stat.read() ?? "").state === "S", { what: "sleep to be asleep" });
    const before = openDescriptors();
    for (let i = 0; i < 500; i++) assert.equal(stat.read(), readFileSync(`/proc/${pid}/stat`, "latin1"));
    assert.equal(openDescriptors(), before, "the same descriptor serves every read");
    process.kill(pid, "SIGSTOP");
    await waitFor(() => parseStat(pid, stat.read() ?? "").state === "T", { what: "the kept descriptor to see the stop" });
    process.kill(pid, "SIGCONT");
    await waitFor(() => parseStat(pid, stat.read() ?? "").state === "S", { what: "the kept descriptor to see the continue" });
  } finally {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  // Reaped: the kept descriptor fails, and the path names nobody now.
  assert.equal(stat.read(), null);
  const held = openDescriptors();
  stat.close();
  assert.ok(openDescriptors() <= held, "close lets go of the descriptor");
});

test("a /proc file longer than one read (a 20 KB cmdline) comes whole", { skip: process.platform !== "linux" && "Linux only" }, async () => {
  const long = "x".repeat(20_000);
  const child = spawn("sh", ["-c", "exec sleep 60", "sh", long], { stdio: "ignore" });
  const pid = child.pid as number;
  const cmdline = new ProcFile(`/proc/${pid}/cmdline`);
  try {
    const text = await waitFor(() => {
      const now = cmdline.read("utf8");
      return now !== null && now.startsWith("sleep") ? now : undefined;
    }, { what: "sh to exec sleep" });
    assert.equal(text, "sleep\x0060\x00", "after exec the same descriptor reads the new argv");
    const shChild = spawn("sh", ["-c", "read x", "sh", long], { stdio: ["pipe", "ignore", "ignore"] });
    const shFile = new ProcFile(`/proc/${shChild.pid}/cmdline`);
    try {
      const whole = await waitFor(() => shFile.read("utf8"), { what: "the long cmdline" });
      assert.equal(whole, readFileSync(`/proc/${shChild.pid}/cmdline`, "utf8"));
      assert.ok(whole.length > 20_000, `the whole argv, not the first 4 KiB: ${whole.length}`);
    } finally {
      shFile.close();
      shChild.kill("SIGKILL");
      await once(shChild, "exit");
    }
  } finally {
    cmdline.close();
    child.kill("SIGKILL");
    await once(child, "exit");
  }
});
