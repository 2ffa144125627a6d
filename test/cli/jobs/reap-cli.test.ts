// corral reap through the CLI, with a private agent: finished jobs retired
// with receipts, idempotent, --all takes whole trees (grandchildren too),
// and what a SIGKILLed agent left behind is found through its guardian
// records and cleaned up, with receipts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { isAlive } from "../../support/processes.ts";
import { waitFor } from "../../support/wait.ts";
import { agentFor as withAgent, jobList as jobs } from "../../support/jobs-fixture.ts";

test("reap retires finished jobs with receipts, is idempotent, and --all leaves nothing running", async (t) => {
  const agent = withAgent(t, "jobs-reap");
  await agent.ok(["run", "--bg", "--", "true"]);
  const pidFile = path.join(agent.dir, "grandchild.pid");
  await agent.ok(["run", "--bg", "--", "sh", "-c", `sleep 600 & echo $! > ${pidFile}; wait`]);
  const grandchild = await waitFor(() => {
    try {
      return Number(readFileSync(pidFile, "utf8").trim()) || undefined;
    } catch {
      return undefined;
    }
  }, { what: "the grandchild's pid" });
  await waitFor(async () => (await jobs(agent)).find((j) => j.id === "%1")?.state === "done", { what: "%1 done" });
  const first = JSON.parse(await agent.ok(["reap", "--json"])) as { jobs: { id: string; number: number; state: string; receipt: { status: string } }[]; sessions: unknown[] };
  assert.deepEqual(first.jobs.map((j) => [j.id, j.number, j.state, j.receipt.status]), [["%1", 1, "done", "confirmed"]], "a reaped job is the job object of jobs --json, with its receipt");
  assert.deepEqual(first.sessions, []);
  assert.equal((await jobs(agent)).length, 1, "the running job stays");
  const all = await agent.run(["reap", "--all", "--grace", "2s", "--json"]);
  assert.equal(all.code, 0, all.stderr);
  const items = (JSON.parse(all.stdout.toString()) as { jobs: { id: string; terminated: boolean; status: number; receipt: { status: string } }[] }).jobs;
  assert.deepEqual(items.map((i) => [i.id, i.terminated, i.status, i.receipt.status]), [["%2", true, 143, "confirmed"]]);
  assert.equal(isAlive(grandchild), false, "the grandchild went with its job");
  assert.deepEqual(await jobs(agent), []);
  assert.equal((await agent.ok(["reap"])).trim(), "nothing to reap");
});

test("reap after the agent was SIGKILLed finds its guardians and cleans up, with receipts", async (t) => {
  const agent = withAgent(t, "jobs-orphans");
  const pidFile = path.join(agent.dir, "escapee.pid");
  // The grandchild leaves the job's process group and session: only the guardian's census finds it.
  await agent.ok(["run", "--bg", "--", "sh", "-c", `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 600' & exec sleep 600`]);
  const escapee = await waitFor(() => {
    try {
      return Number(readFileSync(pidFile, "utf8").trim()) || undefined;
    } catch {
      return undefined;
    }
  }, { what: "the escapee's pid" });
  const [job] = await jobs(agent);
  assert.ok(job !== undefined);
  const agentPid = agent.pid();
  assert.ok(agentPid !== undefined);
  process.kill(agentPid, "SIGKILL");
  await waitFor(() => !isAlive(agentPid), { what: "the agent to die" });
  assert.ok(isAlive(job.pid) && isAlive(escapee), "the guardian keeps the tree while it lingers");
  const reap = await agent.run(["reap", "--grace", "2s", "--json"]);
  assert.equal(reap.code, 0, reap.stderr);
  const orphans = (JSON.parse(reap.stdout.toString()) as { orphans: { job: { id: string; number: number }; agentPid: number; action: string; receipt: { status: string } }[] }).orphans;
  assert.equal(orphans.length, 1);
  assert.deepEqual(orphans[0]?.job, { id: "%1", number: 1 });
  assert.equal(orphans[0]?.agentPid, agentPid);
  assert.match(orphans[0]?.action ?? "", /terminated through its guardian/);
  assert.equal(orphans[0]?.receipt.status, "confirmed");
  assert.equal(isAlive(job.pid), false);
  assert.equal(isAlive(escapee), false);
  assert.equal((await agent.ok(["reap"])).trim(), "nothing to reap", "idempotent");
});


test("reap retires exited sessions with their facts; --all closes running ones", async (t) => {
  const agent = withAgent(t, "reap-sessions");
  await agent.ok(["pty", "open", "--name", "gone", "--", "sh", "-c", "exit 2"]);
  await agent.ok(["pty", "open", "--name", "alive", "--", "sleep", "600"]);
  await waitFor(async () => /exit 2/.test(await agent.ok(["pty", "list"])), { what: "the first session to exit" });
  const first = JSON.parse(await agent.ok(["reap", "--json"])) as { jobs: unknown[]; sessions: { name: string; alive: boolean; exit: { code: number }; size: { cols: number }; terminated: boolean }[] };
  assert.deepEqual(first.jobs, []);
  assert.deepEqual(first.sessions.map((s) => [s.name, s.alive, s.exit.code, s.size.cols, s.terminated]), [["gone", false, 2, 80, false]], "a reaped session is the session object of pty list --json");
  const all = JSON.parse(await agent.ok(["reap", "--all", "--grace", "1s", "--json"])) as {
    sessions: { name: string; pid: number; terminated: boolean; receipt: { status: string } }[];
  };
  assert.deepEqual(all.sessions.map((s) => [s.name, s.terminated, s.receipt.status]), [["alive", true, "confirmed"]]);
  assert.equal(isAlive(all.sessions[0]?.pid ?? 0), false);
  assert.match(await agent.ok(["pty", "list"]), /^ID +NAME/);
  assert.equal((await agent.ok(["reap"])).trim(), "nothing to reap");
});

test("reap after the agent and its guardians were all SIGKILLed terminates what their records name", async (t) => {
  const agent = withAgent(t, "reap-nogrd");
  const pidFile = path.join(agent.dir, "grandchild.pid");
  await agent.ok(["run", "--bg", "--", "sh", "-c", `sleep 600 & echo $! > ${pidFile}; exec sleep 600`]);
  const grandchild = await waitFor(() => {
    try {
      return Number(readFileSync(pidFile, "utf8").trim()) || undefined;
    } catch {
      return undefined;
    }
  }, { what: "the grandchild's pid" });
  const [job] = await jobs(agent);
  const agentPid = agent.pid();
  assert.ok(job !== undefined && agentPid !== undefined);
  // The agent leads its process group, and its guardians are in it: one kill takes them all.
  process.kill(-agentPid, "SIGKILL");
  await waitFor(() => !isAlive(agentPid), { what: "the agent to die" });
  assert.ok(isAlive(job.pid) && isAlive(grandchild), "the job's tree outlives its guardian");
  const reap = await agent.run(["reap", "--grace", "2s", "--json"]);
  assert.equal(reap.code, 0, reap.stderr);
  const [orphan] = (JSON.parse(reap.stdout.toString()) as { orphans: { action: string; receipt: { status: string } }[] }).orphans;
  assert.match(orphan?.action ?? "", /its guardian had already exited; terminated 2 leftover process\(es\) of its tree/);
  assert.equal(orphan?.receipt.status, "confirmed");
  assert.equal(isAlive(job.pid), false);
  assert.equal(isAlive(grandchild), false);
});
