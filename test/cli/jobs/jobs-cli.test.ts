// Background jobs through the CLI, with a private agent: run --bg prints the
// id at once; a job that ends is `done` with its exit facts with nobody
// attached; collect --job reads by offset without consuming (lost ranges
// named, spill served byte-exact); ids malformed (2) or unknown (1); a PTY
// without a terminal on stdin; flags out of place; the no-guardian fallback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { agentFor as withAgent, jobList as jobs } from "../../support/jobs-fixture.ts";
import { waitFor } from "../../support/wait.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { isAlive } from "../../support/processes.ts";

/** A script printing `N` numbered lines of 100 bytes (line number padded). */
const linesScript = (n: number) => `i=0; while [ $i -lt ${n} ]; do printf '%099d\\n' $i; i=$((i+1)); done`;
const expectedLines = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => `${String(i).padStart(99, "0")}\n`).join(""));

test("run --bg prints %N at once; the job is done with exit facts with nobody attached; --follow exits with its status", async (t) => {
  const agent = withAgent(t, "jobs-bg");
  const id = (await agent.ok(["run", "--bg", "--", "sh", "-c", "echo out; echo err >&2; read x < /dev/null; exit 7"])).trim();
  assert.equal(id, "%1");
  const done = await waitFor(async () => (await jobs(agent)).find((j) => j.id === "%1" && j.state === "done"), { what: "%1 done" });
  assert.equal(done.status, 7);
  assert.equal(done.exit?.code, 7);
  assert.equal(done.mark, "+");
  assert.deepEqual(done.argv.slice(0, 2), ["sh", "-c"]);
  const follow = await agent.run(["collect", "--job", "%1", "--follow"]);
  assert.equal(follow.code, 7);
  assert.equal(follow.stdout.toString(), "out\nerr\n");
  // Reading never consumes: the same bytes again, and from an offset.
  assert.equal((await agent.run(["collect", "--job", "1", "--from", "4"])).stdout.toString(), "err\n");
  const text = await agent.ok(["jobs"]);
  assert.match(text, /^\[1\]\+ +done \(exit 7\) +pid \d+ +8 B +sh -c/m);
});

test("collect --job names what is lost without a spill, and a spill serves it byte-exact", async (t) => {
  const agent = withAgent(t, "jobs-lost");
  const n = 2000; // 200000 bytes
  await agent.ok(["run", "--bg", "--head-bytes", "1000", "--max-bytes", "5000", "--", "sh", "-c", linesScript(n)]);
  const spill = path.join(agent.dir, "all.out");
  await agent.ok(["run", "--bg", "--name", "spilled", "--head-bytes", "1000", "--max-bytes", "5000", "--spill", spill, "--", "sh", "-c", linesScript(n)]);
  await waitFor(async () => (await jobs(agent)).every((j) => j.state === "done"), { what: "both jobs done" });
  const lost = await agent.run(["collect", "--job", "%1"]);
  assert.equal(lost.code, 0);
  assert.match(lost.stderr, /%1: bytes 1000\.\.195000 are lost \(no longer in memory; the job has no spill file\); going on from 195000/);
  const expected = expectedLines(n);
  assert.deepEqual(lost.stdout, Buffer.concat([expected.subarray(0, 1000), expected.subarray(195_000)]));
  const whole = await agent.run(["collect", "--job", "spilled", "--follow"]);
  assert.equal(whole.code, 0);
  assert.equal(whole.stderr, "");
  const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
  assert.equal(sha(whole.stdout), sha(expected));
  assert.equal(sha(readFileSync(spill)), sha(expected));
  const past = await agent.run(["collect", "--job", "%1", "--from", "200001"]);
  assert.equal(past.code, 2);
  assert.match(past.stderr, /^corral: --from 200001 is past the end of %1's output \(200000 bytes so far\)\n$/);
});

test("job ids: malformed is exit 2, unknown is exit 1, fg of a finished job prints its facts and exits with its status", async (t) => {
  const agent = withAgent(t, "jobs-ids");
  await agent.ok(["run", "--bg", "--", "sh", "-c", "exit 4"]);
  await waitFor(async () => (await jobs(agent))[0]?.state === "done", { what: "%1 done" });
  // The ids' statuses and messages in-process (the agent is asked as by a
  // child); fg's own exit status below goes through a real process.
  for (const args of [["fg", "%x!"], ["bg", "0"], ["collect", "--job", "%%%"], ["fg", "1.5"]]) {
    const r = await corralInProcess(args, { env: agent.env });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^corral: .*bad job id .*; use N or %N/);
  }
  for (const args of [["fg", "%9"], ["bg", "9"], ["collect", "--job", "nosuch"]]) {
    const r = await corralInProcess(args, { env: agent.env });
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /^corral: no job .*; corral jobs lists them\n$/);
  }
  const fg = await agent.run(["fg", "%1"]);
  assert.equal(fg.code, 4);
  assert.match(fg.stderr, /^corral: %1 has finished: exit 4\n$/);
});

test("run --tty without a terminal on stdin still gives the command a PTY; collect --tty captures bounded", async (t) => {
  const agent = withAgent(t, "jobs-notty");
  const run = await agent.run(["run", "--tty", "--", "sh", "-c", "test -t 0 && test -t 1 && echo on-a-tty; stty size; exit 5"], { input: "ignored\n" });
  assert.equal(run.code, 5, run.stderr);
  assert.equal(run.stdout.toString(), "on-a-tty\r\n24 80\r\n");
  const json = await agent.run(["collect", "--tty", "--json", "--", "sh", "-c", "test -t 1 && echo tty-out"]);
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout.toString()) as { exit: { code: number }; output: { head: string; bytes: number } };
  assert.equal(report.exit.code, 0);
  assert.equal(report.output.head, "tty-out\r\n");
  const bounded = await agent.run(["collect", "--tty", "--head-bytes", "5", "--max-bytes", "10", "--", "sh", "-c", "seq 1 100; exit 3"]);
  assert.equal(bounded.code, 3);
  // Byte cuts move to line ends (README "Lines"): "1\r\n2\r" keeps "1\r\n", "\n99\r\n100\r\n" drops its "\n".
  const marker = "[corral: 97 lines, 380 bytes elided (of 100 lines, 392 bytes; head cut by --head-bytes, tail by --max-bytes); not kept]";
  assert.equal(bounded.stdout.toString(), `1\r\n${marker}\n99\r\n100\r\n`);
  assert.deepEqual(await jobs(agent), [], "foreground jobs that ended are not kept");
});

test("job flags out of place are usage errors (exit 2) naming what goes with what", async (t) => {
  const agent = withAgent(t, "jobs-flags");
  const cases: [string[], RegExp][] = [
    [["run", "--name", "x", "--", "true"], /--name, --max-bytes, --head-bytes, --spill and --socket go with --bg or --tty/],
    [["collect", "--follow", "--", "true"], /--from, --follow and --socket go with --job ID/],
    [["collect", "--job", "%1", "--", "true"], /--job reads a job's output: give no command/],
    [["collect", "--job", "%1", "--from", "-3"], /--from must be a byte offset/],
    [["run", "--bg", "--timeout", "5s", "--", "true"], /--timeout does not apply to a job/],
    [["run", "--bg", "--name", "9lives", "--", "true"], /--name must start with a letter/],
    [["collect"], /no command given/],
  ];
  // In-process: each is refused while the command line is read, before the agent is reached.
  for (const [args, message] of cases) {
    const r = await corralInProcess(args, { env: agent.env });
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.split("\n").length, 2, "one line");
  }
  assert.equal(agent.pid(), undefined, "no usage error started the agent");
  const missing = await agent.run(["run", "--bg", "--", "/nonexistent/program"]);
  assert.equal(missing.code, 127);
  assert.match(missing.stderr, /^corral: \/nonexistent\/program: no such file\n$/);
});

test("without a guardian, run --bg still works through the process group, and run --tty says why it cannot", async (t) => {
  const agent = withAgent(t, "jobs-noguardian", { CORRAL_GUARDIAN_BIN: "/nonexistent/corral-guardian" });
  assert.equal((await agent.ok(["run", "--bg", "--", "sh", "-c", "echo fallback; exit 3"])).trim(), "%1");
  const follow = await agent.run(["collect", "--job", "%1", "--follow"]);
  assert.equal(follow.code, 3);
  assert.equal(follow.stdout.toString(), "fallback\n");
  const [job] = await jobs(agent);
  assert.equal(job?.backend, "process-group");
  const tty = await agent.run(["run", "--tty", "--", "true"]);
  assert.equal(tty.code, 125);
  assert.match(tty.stderr, /^corral: --tty jobs need the guardian, and .*corral-guardian \(named by CORRAL_GUARDIAN_BIN\) is missing/);
});

test("collect --tty cancelled with SIGTERM: the command's tree goes, the report still comes, corral dies of SIGTERM", async (t) => {
  const agent = withAgent(t, "jobs-cancel");
  let pid = 0;
  const pending = agent.run(["collect", "--tty", "--json", "--", "sh", "-c", "echo started; exec sleep 600"], { onSpawn: (p) => (pid = p) });
  const job = await waitFor(async () => (await jobs(agent)).find((j) => j.state === "running" && j.attached && j.bytes > 0), { what: "the captured job to run" });
  process.kill(pid, "SIGTERM");
  const result = await pending;
  assert.equal(result.signal, "SIGTERM", result.stderr);
  const report = JSON.parse(result.stdout.toString()) as { exit: { signal: string }; output: { head: string } };
  assert.equal(report.exit.signal, "SIGTERM");
  assert.equal(report.output.head, "started\r\n", result.stderr + result.stdout.toString());
  await waitFor(() => !isAlive(job.pid), { what: "the job's process to be gone" });
  assert.deepEqual(await jobs(agent), []);
});

test("--facts with jobs: run --tty writes them when the job ends, run --bg refuses (2), collect --job writes them once it has ended", async (t) => {
  const agent = withAgent(t, "jobs-facts");
  const factsFile = path.join(agent.dir, "tty.json");
  const tty = await agent.run(["run", "--tty", "--facts", factsFile, "--", "sh", "-c", "exit 5"]);
  assert.equal(tty.code, 5, tty.stderr);
  assert.deepEqual(pick(JSON.parse(readFileSync(factsFile, "utf8"))), { code: 5, signal: null, timedOut: false });
  const stdoutFacts = await agent.run(["run", "--tty", "--facts", "-", "--", "true"]);
  assert.equal(stdoutFacts.code, 2);
  assert.match(stdoutFacts.stderr, /^corral: --facts - is refused here: stdout belongs to the command/);
  const bg = await agent.run(["run", "--bg", "--facts", path.join(agent.dir, "bg.json"), "--", "true"]);
  assert.equal(bg.code, 2);
  assert.equal(bg.stderr, "corral: --facts does not apply to run --bg: corral returns before the job ends; collect --job %N --follow --facts FILE waits for its end and writes them\n");
  assert.deepEqual(await jobs(agent), [], "refused before any job started");

  const done = (await agent.ok(["run", "--bg", "--", "sh", "-c", "echo out; exit 6"])).trim();
  const follow = await agent.run(["collect", "--job", done, "--follow", "--facts", "-"]);
  assert.equal(follow.code, 6, follow.stderr);
  const [output, factsLine, ...rest] = follow.stdout.toString().split("\n");
  assert.equal(output, "out");
  assert.deepEqual(pick(JSON.parse(factsLine ?? "")), { code: 6, signal: null, timedOut: false }, "the facts come last, after the output");
  assert.deepEqual(rest, [""]);
  const jobFile = path.join(agent.dir, "job.json");
  const again = await agent.run(["collect", "--job", done, "--facts", jobFile]);
  assert.equal(again.code, 0, "reading a finished job succeeds, as without --facts");
  assert.equal(pick(JSON.parse(readFileSync(jobFile, "utf8"))).code, 6);
  const running = (await agent.ok(["run", "--bg", "--", "sleep", "600"])).trim();
  const early = await agent.run(["collect", "--job", running, "--facts", path.join(agent.dir, "early.json")]);
  assert.equal(early.code, 0);
  assert.match(early.stderr, new RegExp(`--facts .*early\\.json: not written, ${running} has not ended; --follow waits for its end\\n$`));
  assert.throws(() => readFileSync(path.join(agent.dir, "early.json")), /ENOENT/);
});

test("run --tty and collect --tty name the withheld variables, as run and collect do", async (t) => {
  const agent = withAgent(t, "jobs-dropped", { GITHUB_TOKEN: "ghp_secretvalue", AWS_REGION: "eu-west-1" });
  // The test's own environment may hold other credential-shaped names: match ours among them.
  const note = /^corral: withheld (.*\b)?GITHUB_TOKEN\b.* from the command \(credential-shaped; --keep-env NAME or --no-scrub passes (it|them)\)\n$/;
  for (const args of [["run", "--tty"], ["collect", "--tty"]]) {
    const failed = await agent.run([...args, "--", "sh", "-c", "exit 3"]);
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, note, args.join(" "));
    assert.ok(!failed.stderr.includes("AWS_REGION"), "what is not a credential stays, and is not named");
    assert.ok(!failed.stderr.includes("ghp_secretvalue"), "names only, never values");
    const ok = await agent.run([...args, "--quiet", "--", "true"]);
    assert.equal(ok.stderr, "", `${args.join(" ")}: --quiet silences the line`);
    const kept = await agent.run([...args, "--no-scrub", "--", "sh", "-c", "exit 3"]);
    assert.equal(kept.stderr, "", `${args.join(" ")}: nothing dropped, no note`);
  }
  const json = await agent.run(["collect", "--tty", "--json", "--", "sh", "-c", "exit 3"]);
  assert.equal(json.code, 3);
  const { envDropped } = JSON.parse(json.stdout.toString()) as { envDropped: string[] };
  assert.ok(envDropped.includes("GITHUB_TOKEN") && !envDropped.includes("AWS_REGION"), envDropped.join(","));
  assert.match(json.stderr, note, "with --json the names are a field and still the line");
});

/** The facts fields a test can know in advance. */
function pick(facts: { code: number | null; signal: string | null; timedOut: boolean }) {
  return { code: facts.code, signal: facts.signal, timedOut: facts.timedOut };
}
