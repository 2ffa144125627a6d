// lib/supervise/orphaned-tree.ts: what corral terminates itself when a tree's
// guardian is gone. The child's group, its descendants (a setsid escapee
// whose parent lives) go; a stranger holding an id the record names, or a
// process started before the child, is never signalled (negative control).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { terminateOrphanedTree, type OrphanedChild } from "../../../lib/supervise/orphaned-tree.ts";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";

function startTime(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

function identity(child: ChildProcess): OrphanedChild {
  const pid = child.pid!;
  return { pid, pgid: pid, sid: 0, startTime: startTime(pid) };
}

function killQuietly(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(pid, "SIGKILL");
  } catch {
    // gone
  }
}

test("the child, its group and its descendants (setsid escapee included) go; a process started earlier stays", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-orphaned-"));
  // Started first, in its own group: older than the child, so never a member.
  const bystander = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  const tree = spawn("sh", ["-c", `sleep 300 & echo $! > ${dir}/grandchild; setsid sh -c 'echo $$ > ${dir}/escapee; exec sleep 301' & wait`], {
    detached: true,
    stdio: "ignore",
  });
  const pids = () => ["grandchild", "escapee"].map((f) => Number(readFileSync(path.join(dir, f), "utf8")));
  t.after(() => {
    for (const pid of [bystander.pid, tree.pid, ...(existsSync(path.join(dir, "escapee")) ? pids() : [])]) killQuietly(pid);
    rmSync(dir, { recursive: true, force: true });
  });
  await waitFor(() => existsSync(path.join(dir, "grandchild")) && existsSync(path.join(dir, "escapee")) && readFileSync(path.join(dir, "escapee"), "utf8").length > 0, {
    what: "the tree to start",
  });
  const [grandchild, escapee] = pids() as [number, number];
  // The record's session is the bystander's group: a stranger's id, not the tree's.
  const report = await terminateOrphanedTree({ ...identity(tree), sid: bystander.pid! }, 2000);
  for (const pid of [tree.pid!, grandchild, escapee]) assert.equal(isAlive(pid), false, `pid ${pid} still runs`);
  assert.deepEqual(report.left, []);
  assert.equal(isAlive(bystander.pid!), true, "a process started before the child was signalled");
  assert.ok(!report.terminated.includes(bystander.pid!));
});

test("a recorded child whose pid now names another process (start time differs) is left alone", async (t) => {
  const stranger = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
  t.after(() => killQuietly(stranger.pid));
  await waitFor(() => isAlive(stranger.pid!), { what: "the stranger to start" });
  const pid = stranger.pid!;
  const report = await terminateOrphanedTree({ pid, pgid: pid, sid: pid, startTime: startTime(pid) - 1 }, 500);
  assert.deepEqual(report.terminated, []);
  assert.equal(isAlive(pid), true);
});
