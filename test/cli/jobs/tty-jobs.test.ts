// corral inside a real terminal (tmux on a private socket): run --tty hands
// the terminal to a job; Ctrl-Z parks it (148, `[N]+  Stopped  CMD`); jobs,
// fg and bg act on it; the outer terminal's `stty -a` is the same before and
// after every way out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { jobList, terminalWithAgent } from "../../support/jobs-fixture.ts";
import { waitFor } from "../../support/wait.ts";

test("vim: type, Ctrl-Z, jobs shows it stopped, fg brings the text back, :q! exits 0", async (t) => {
  const term = terminalWithAgent(t, "tty-vim");
  const before = await term.sttyState("stty-before");
  const run = term.corral("run --tty -- vim -u NONE -N");
  await term.waitScreen(/^~\s*$/m, "vim's empty buffer");
  term.keys("i");
  term.keys("-l", "text typed before the stop");
  term.keys("Escape");
  await term.waitScreen(/text typed before the stop/, "the typed text");
  term.keys("C-z");
  assert.equal(await term.status(run), 148);
  assert.match(term.screen(), /^\[1\]\+ {2}Stopped {2}vim -u NONE -N$/m);
  const jobs = term.corral("jobs");
  await term.status(jobs);
  assert.match(term.screen(), /^\[1\]\+\s+stopped\s+pid \d+.*vim -u NONE -N/m);
  assert.equal(await term.sttyState("stty-parked"), before);
  const fg = term.corral("fg");
  await term.waitScreen(/^text typed before the stop\s*$/m, "vim redrawn with the text after fg");
  term.keys("-l", ":q!");
  term.keys("Enter");
  assert.equal(await term.status(fg), 0);
  assert.equal(await term.sttyState("stty-after"), before);
});

test("cat: Ctrl-Z, bg, and the row becomes running", async (t) => {
  const term = terminalWithAgent(t, "tty-cat");
  const run = term.corral("run --tty --name kitty -- cat");
  // Until the pane's corral has started the agent there is no job table to read.
  const jobsNow = () => jobList(term.agent).catch(() => []);
  await waitFor(async () => (await jobsNow()).some((j) => j.state === "running"), { what: "the job to run" });
  term.keys("C-z");
  assert.equal(await term.status(run), 148);
  const bg = term.corral("bg %1");
  assert.equal(await term.status(bg), 0);
  assert.match(term.screen(), /^\[1\]\+ cat &$/m);
  const json = JSON.parse((await term.agent.run(["jobs", "--json"])).stdout.toString()) as { jobs: { state: string; name: string }[] };
  assert.equal(json.jobs[0]?.state, "running");
  assert.equal(json.jobs[0]?.name, "kitty");
});

test("run --tty --facts: a stop (148) writes none and says how to get them; bg then collect --job --follow --facts writes them at the end", async (t) => {
  const term = terminalWithAgent(t, "tty-facts");
  const facts = path.join(term.agent.dir, "parked.json");
  const run = term.corral(`run --tty --facts ${facts} -- cat`);
  await waitFor(async () => (await jobList(term.agent).catch(() => [])).some((j) => j.state === "running" && j.attached), { what: "the job to have the terminal" });
  term.keys("C-z");
  assert.equal(await term.status(run), 148);
  // The pane is 100 columns wide: the line wraps.
  assert.match(term.screen().replaceAll("\n", ""), /--facts \S*parked\.json: not written, %1 has not ended \(stopped\); corral bg %1, then corral collect --job %1 --follow --facts FILE writes them when it ends/);
  assert.equal(existsSync(facts), false);
  assert.equal(await term.status(term.corral("bg %1")), 0);
  const follow = term.agent.run(["collect", "--job", "%1", "--follow", "--facts", facts]);
  // cat now runs with no terminal attached: a SIGTERM ends it; a job continued with bg stays listed
  // once done, so the follower sees that end however late it connects.
  const [job] = await jobList(term.agent);
  assert.ok(job !== undefined);
  await waitFor(async () => (await jobList(term.agent))[0]?.state === "running", { what: "cat to run again" });
  process.kill(job.pid, "SIGTERM");
  const followed = await follow;
  assert.equal(followed.code, 143, followed.stderr);
  assert.equal((JSON.parse(readFileSync(facts, "utf8")) as { signal: string }).signal, "SIGTERM");
});

test("stty -a is unchanged after a normal exit, a child killed by a signal, a client SIGTERM, and a lost agent", async (t) => {
  const term = terminalWithAgent(t, "tty-stty");
  const before = await term.sttyState("stty-0");

  assert.equal(await term.status(term.corral("run --tty -- sh -c 'echo plain exit; exit 3'")), 3);
  assert.equal(await term.sttyState("stty-1"), before, "after a normal exit");

  assert.equal(await term.status(term.corral("run --tty -- sh -c 'kill -KILL $$'")), 137);
  assert.equal(await term.sttyState("stty-2"), before, "after the child was killed by SIGKILL");

  const sleeper = term.corral("run --tty -- sh -c 'echo sleeping; exec sleep 600'");
  await term.waitScreen(/^sleeping\s*$/m, "the job to start");
  const client = await waitFor(() => term.foregroundChild(), { what: "corral in the pane" });
  process.kill(client, "SIGTERM");
  assert.equal(await term.status(sleeper), 143, "the job was terminated with the client: SIGTERM");
  assert.equal(await term.sttyState("stty-3"), before, "after SIGTERM to the client");

  const lost = term.corral("run --tty -- sh -c 'echo held; exec sleep 600'");
  await term.waitScreen(/^held\s*$/m, "the second job to start");
  const agentPid = term.agent.pid();
  assert.ok(agentPid !== undefined);
  process.kill(agentPid, "SIGKILL");
  assert.equal(await term.status(lost), 125, "the agent went away: corral's own failure");
  assert.match(term.screen(), /corral: lost the job's terminal/);
  assert.equal(await term.sttyState("stty-4"), before, "after the agent was killed under the client");
  const reap = await term.agent.run(["reap", "--json"]);
  const orphans = (JSON.parse(reap.stdout.toString()) as { orphans: { receipt: { status: string } }[] }).orphans;
  assert.equal(orphans.length, 1, reap.stdout.toString());
  assert.equal(orphans[0]?.receipt.status, "confirmed");
});

test("resizing the outer terminal reaches the job (stty size)", async (t) => {
  const term = terminalWithAgent(t, "tty-size");
  const run = term.corral(`run --tty -- sh -c 'stty size; trap "stty size" WINCH; while :; do sleep 0.05; done'`);
  await term.waitScreen(/^30 100\s*$/m, "the starting size");
  term.tmux("resize-window", "-t", "t", "-x", "90", "-y", "25");
  await term.waitScreen(/^25 90\s*$/m, "the new size inside the job");
  term.keys("C-c");
  assert.equal(await term.status(run), 130);
});

test("a job stopped and resumed twice keeps every byte of its output in the tee (sha256)", async (t) => {
  const term = terminalWithAgent(t, "tty-tee");
  const lines = 3000;
  const script = path.join(term.agent.dir, "gen.py");
  writeFileSync(script, `import sys, time\nfor i in range(${lines}):\n    sys.stdout.write("line %05d\\n" % i)\n    sys.stdout.flush()\n    time.sleep(0.002)\n`);
  // Polled in waits: the job list in-process (jobList), not a CLI child per poll.
  const bytes = async () => (await jobList(term.agent))[0];
  // No echo: the ^Z typed at the job must not become part of its output.
  // noflsh: without it the kernel's line discipline discards output still
  // queued in the PTY when ^Z raises SIGTSTP (a real terminal loses it too),
  // which this test would count as corral losing a line (seen once in CI).
  const run = term.corral(`run --tty --name tee -- sh -c 'stty -echo noflsh; exec python3 -u ${script}'`);
  await waitFor(async () => ((await bytes())?.bytes ?? 0) > 5_000, { what: "some output before the first stop" });
  term.keys("C-z");
  assert.equal(await term.status(run), 148);
  const stoppedAt = (await bytes())?.bytes ?? 0;
  const fg = term.corral("fg tee");
  await waitFor(async () => ((await bytes())?.bytes ?? 0) > stoppedAt + 5_000, { what: "more output after fg" });
  term.keys("C-z");
  assert.equal(await term.status(fg), 148);
  assert.equal(await term.status(term.corral("bg")), 0);
  await waitFor(async () => (await bytes())?.state === "done", { timeoutMs: 60_000, what: "the job to finish in the background" });
  const tee = (await term.agent.run(["collect", "--job", "tee"])).stdout;
  const expected = Buffer.from(Array.from({ length: lines }, (_, i) => `line ${String(i).padStart(5, "0")}\r\n`).join(""));
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  assert.equal(tee.length, expected.length);
  assert.equal(sha(tee), sha(expected));
});

test("fg of a background job without a terminal of its own: its output here, Ctrl-Z stops it (148)", async (t) => {
  const term = terminalWithAgent(t, "tty-pipefg");
  await term.agent.ok(["run", "--bg", "--", "sh", "-c", "i=0; while :; do echo tick $i; i=$((i+1)); sleep 0.2; done"]);
  const fg = term.corral("fg %1");
  await term.waitScreen(/^tick \d+\s*$/m, "the job's output in this terminal");
  term.keys("C-z");
  assert.equal(await term.status(fg), 148);
  assert.match(term.screen(), /^\[1\]\+ {2}Stopped {2}sh -c /m);
  const [job] = (JSON.parse((await term.agent.run(["jobs", "--json"])).stdout.toString()) as { jobs: { state: string }[] }).jobs;
  assert.equal(job?.state, "stopped");
});
