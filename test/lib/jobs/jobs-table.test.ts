// The job table and job ids without any process: %N numbering as bash does
// it, current/previous marks by recency, lookups, the cap on finished jobs,
// and every form of id (good, malformed, at the edges).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { JobIdError, parseJobRef } from "../../../lib/jobs/job-id.ts";
import { Job } from "../../../lib/jobs/job.ts";
import type { SupervisedTree, SupervisedTreeEvents } from "../../../lib/supervise/handle.ts";
import { JobTable, MAX_DONE_KEPT, UnknownJobError } from "../../../lib/jobs/job-table.ts";

/** A process that does nothing but let the test fire its events. */
function fakeProcess(pid: number) {
  const listeners: { [K in keyof SupervisedTreeEvents]?: SupervisedTreeEvents[K][] } = {};
  const proc: SupervisedTree = {
    pid,
    backend: "guardian",
    on(event, listener) {
      (listeners[event] ??= [] as never[]).push(listener as never);
    },
    write() {},
    resize() {},
    signal: () => Promise.resolve(),
    terminate: () => Promise.resolve({ status: "confirmed", forced: false, reason: null }),
    pause() {},
    resume() {},
    dispose() {},
  };
  const fire = <K extends keyof SupervisedTreeEvents>(event: K, ...args: Parameters<SupervisedTreeEvents[K]>) => {
    for (const l of listeners[event] ?? []) (l as (...a: unknown[]) => void)(...args);
  };
  return { proc, fire };
}

async function addJob(table: JobTable, name: string | null = null) {
  const { proc, fire } = fakeProcess(1000 + table.nextId());
  const store = await BoundedStore.open({ headBytes: 4, tailBytes: 4 });
  const job = new Job({ id: table.nextId(), name, argv: ["x"], mode: "pipe", store, process: proc });
  table.add(job);
  const finish = () => fire("done", { code: 0, signal: null, timedOut: false, forced: false, durationMs: 1, outputComplete: true }, { status: "confirmed", forced: false, reason: null });
  return { job, fire, finish };
}

test("job ids: every accepted form, and the malformed ones refused", () => {
  assert.deepEqual(parseJobRef("1"), { kind: "number", n: 1 });
  assert.deepEqual(parseJobRef("%12"), { kind: "number", n: 12 });
  assert.deepEqual(parseJobRef("%999999999"), { kind: "number", n: 999999999 });
  for (const current of ["%+", "%%", "+", "%"]) assert.deepEqual(parseJobRef(current), { kind: "current" });
  for (const previous of ["%-", "-"]) assert.deepEqual(parseJobRef(previous), { kind: "previous" });
  assert.deepEqual(parseJobRef("build"), { kind: "name", name: "build" });
  assert.deepEqual(parseJobRef("%web.1"), { kind: "name", name: "web.1" });
  for (const bad of ["", "0", "%0", "%-3", "1.5", "%1000000000", "9lives", "%x!", "a b", "%%%", "x".repeat(65)]) {
    assert.throws(() => parseJobRef(bad), JobIdError, bad);
  }
});

test("numbering, marks by recency, lookups, unknown ids", async () => {
  const table = new JobTable();
  assert.throws(() => table.resolve(undefined), UnknownJobError);
  const a = await addJob(table);
  const b = await addJob(table, "web");
  const c = await addJob(table);
  assert.deepEqual([a.job.id, b.job.id, c.job.id], [1, 2, 3]);
  assert.deepEqual(table.all().map((j) => table.mark(j)), [null, "-", "+"]);
  a.fire("stopped", 20);
  assert.equal(a.job.state, "stopped");
  assert.equal(table.resolve(undefined), a.job, "a job just stopped is the current one");
  assert.equal(table.resolve({ kind: "previous" }), c.job);
  assert.equal(table.resolve({ kind: "name", name: "web" }), b.job);
  a.fire("continued");
  assert.equal(a.job.state, "running");
  c.finish();
  assert.equal(c.job.state, "done");
  assert.equal(c.job.status, 0);
  table.retire(c.job);
  assert.equal(table.nextId(), 3, "one above the highest in use, as bash numbers");
  table.retire(b.job);
  assert.equal(table.nextId(), 2);
  assert.throws(() => table.resolve({ kind: "number", n: 3 }), /no job %3; corral jobs lists them/);
  assert.equal(table.liveCount(), 1);
});

test(`at most ${MAX_DONE_KEPT} finished jobs are kept; the oldest go first, running ones never`, async () => {
  const table = new JobTable();
  const running = await addJob(table);
  const finished = [];
  for (let i = 0; i < MAX_DONE_KEPT + 1; i++) finished.push(await addJob(table));
  for (const f of finished.slice(0, MAX_DONE_KEPT)) f.finish();
  assert.equal(table.size, MAX_DONE_KEPT + 2);
  finished[MAX_DONE_KEPT]?.finish();
  assert.equal(table.size, MAX_DONE_KEPT + 1);
  assert.equal(table.all()[0], running.job);
  assert.equal(table.all().includes(finished[0]?.job as Job), false, "the oldest finished job went");
});
