// Live session and job ids in completion, against a real private agent: the
// hook never starts an agent, lists the sessions and jobs of a running one,
// and the bash script offers them after `pty send`, `fg` and `collect --job`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { corralCommand, repoRoot } from "../../support/corral-cli.ts";

let agent: PrivateAgent;

let bin: string;

before(() => {
  agent = privateAgent("completion-ids");
  // `corral` on PATH is this checkout's CLI, as a user's would be.
  bin = path.join(agent.dir, "bin");
  mkdirSync(bin);
  const quoted = corralCommand().map((w) => `'${w}'`).join(" ");
  writeFileSync(path.join(bin, "corral"), `#!/bin/sh\nexec ${quoted} "$@"\n`);
  chmodSync(path.join(bin, "corral"), 0o755);
});

after(async () => {
  await agent.stop();
});

async function ids(kind: string): Promise<string[]> {
  const result = await agent.run(["completions", "--ids", kind]);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, "");
  return result.stdout.toString().split("\n").filter((l) => l !== "");
}

test("no agent running: no ids, and no agent is started", async () => {
  assert.deepEqual(await ids("sessions"), []);
  assert.deepEqual(await ids("jobs"), []);
  assert.equal(agent.pid(), undefined);
  assert.equal(existsSync(agent.socket), false);
});

test("a running agent's sessions are offered by name and id, also through the bash script", async () => {
  const opened = JSON.parse(await agent.ok(["pty", "open", "--name", "web", "--json", "--", "cat"])).session as { id: string };
  assert.deepEqual((await ids("sessions")).sort(), ["web", opened.id].sort());

  const script = path.join(repoRoot, "completions", "corral.bash");
  const bash = spawnSync("bash", ["--norc", "--noprofile"], {
    input: `source '${script}'\nCOMP_WORDS=(corral pty send w); COMP_CWORD=3; _corral; printf '%s\\n' "\${COMPREPLY[@]}"\n`,
    env: { ...process.env, ...agent.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
    encoding: "utf8",
  });
  assert.equal(bash.status, 0, bash.stderr);
  assert.deepEqual(bash.stdout.split("\n").filter((l) => l !== ""), ["web"]);

  await agent.ok(["pty", "close", "web"]);
});

test("a running agent's jobs are offered as %N and by name, for fg and collect --job", async () => {
  const started = (await agent.ok(["run", "--bg", "--name", "sleeper", "--", "sleep", "600"])).trim();
  assert.match(started, /^%\d+/);
  const label = /^%\d+/.exec(started)?.[0] ?? "";
  try {
    assert.deepEqual((await ids("jobs")).sort(), [label, "sleeper"].sort());
    const script = path.join(repoRoot, "completions", "corral.bash");
    const complete = (words: string) => {
      const bash = spawnSync("bash", ["--norc", "--noprofile"], {
        input: `source '${script}'\nCOMP_WORDS=(corral ${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _corral; printf '%s\\n' "\${COMPREPLY[@]}"\n`,
        env: { ...process.env, ...agent.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
        encoding: "utf8",
      });
      assert.equal(bash.status, 0, bash.stderr);
      return bash.stdout.split("\n").filter((l) => l !== "").sort();
    };
    assert.deepEqual(complete("fg ''"), [label, "sleeper"].sort());
    assert.deepEqual(complete("collect --job s"), ["sleeper"]);
  } finally {
    await agent.ok(["reap", "--all", "--grace", "1s"]);
  }
});
