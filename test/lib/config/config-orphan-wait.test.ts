// Config key `agent.orphan-wait` (issue 11): how long the guardians of the
// agent's sessions and jobs wait for a new agent. `off` (the default) or a
// duration within what the guardian's --orphan-wait takes (1ms..1d); a bad
// value is one line naming file:line: key, exit 2. What the agent does with
// it is tested by test/scripts/agent-orphan-wait.sh.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../../../lib/config/load.ts";
import { DEFAULT_CONFIG } from "../../../lib/config/schema.ts";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-orphan-wait-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(value: string): string {
  const p = path.join(dir, `c${n++}.yaml`);
  writeFileSync(p, `# guardians\nagent:\n  orphan-wait: ${value}\n`);
  return p;
}

async function orphanWait(value: string): Promise<number | "off"> {
  return (await loadConfig({ CORRAL_CONFIG: file(value) })).agent.orphanWaitMs;
}

async function problem(value: string): Promise<string> {
  const p = file(value);
  try {
    await loadConfig({ CORRAL_CONFIG: p });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(!error.message.includes("\n"), `one line: ${error.message}`);
    const prefix = `${p}:3: agent.orphan-wait: `;
    assert.ok(error.message.startsWith(prefix), error.message);
    return error.message.slice(prefix.length);
  }
  assert.fail(`expected a ConfigError for orphan-wait: ${value}`);
}

test("default: off (the guardians wait as long as their program lives)", async () => {
  assert.equal(DEFAULT_CONFIG.agent.orphanWaitMs, "off");
  assert.equal(await orphanWait("off"), "off");
  const p = path.join(dir, "absent.yaml");
  writeFileSync(p, "agent:\n  idle-timeout: 1m\n");
  assert.equal((await loadConfig({ CORRAL_CONFIG: p })).agent.orphanWaitMs, "off", "the key absent");
});

test("durations as people type them, at the guardian's limits", async () => {
  assert.equal(await orphanWait("2s"), 2000);
  assert.equal(await orphanWait("90"), 90_000, "a bare number is seconds");
  assert.equal(await orphanWait("1h30m"), 5_400_000);
  assert.equal(await orphanWait("1ms"), 1, "the shortest");
  assert.equal(await orphanWait("1d"), 86_400_000, "the longest: native/main.c takes at most a day");
});

test("bad values: one line with file:line: key, saying what would be right", async () => {
  const range = "use off (no bound) or a duration from 1ms to 1d";
  assert.equal(await problem("0s"), `"0s" is out of range; ${range}`);
  assert.equal(await problem("0"), `"0" is out of range; ${range}`);
  assert.equal(await problem("1d1ms"), `"1d1ms" is out of range; ${range}`);
  assert.equal(await problem("forever"), `"forever" is not a duration; ${range} such as 30s, 10m or 2h`);
  assert.equal(await problem("OFF"), `"OFF" is not a duration; ${range} such as 30s, 10m or 2h`);
  assert.equal(await problem("[1s]"), "expected a duration from 1ms to 1d, or off, got a list");
  assert.equal(await problem(""), "has no value; use a duration from 1ms to 1d, or off");
});

test("corral config shows it, and its YAML loads back to the same value", async () => {
  const yaml = await corral(["config"], { env: { CORRAL_CONFIG: file("1h30m") } });
  assert.equal(yaml.code, 0, yaml.stderr);
  assert.match(yaml.stdout.toString(), /^agent:\n {2}idle-timeout: 5m\n {2}orphan-wait: 1h30m$/m);
  const saved = path.join(dir, "saved.yaml");
  writeFileSync(saved, yaml.stdout);
  const json = await corralInProcess(["config", "--json"], { env: { CORRAL_CONFIG: saved } });
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual((JSON.parse(json.stdout.toString()) as { config: typeof DEFAULT_CONFIG }).config.agent, {
    idleTimeoutMs: 300_000,
    orphanWaitMs: 5_400_000,
  });
  const off = await corralInProcess(["config"], { env: { CORRAL_CONFIG: file("off") } });
  assert.match(off.stdout.toString(), /^ {2}orphan-wait: off$/m);
});

test("a bad value stops a command that starts guardians: exit 2, one stderr line", async () => {
  const p = file("soon");
  const result = await corral(["run", "--bg", "--", "true"], { env: { CORRAL_CONFIG: p, CORRAL_STATE_DIR: path.join(dir, "state") } });
  assert.equal(result.code, 2);
  assert.equal(result.stdout.length, 0);
  assert.equal(result.stderr.toString(),
    `corral: ${p}:3: agent.orphan-wait: "soon" is not a duration; use off (no bound) or a duration from 1ms to 1d such as 30s, 10m or 2h\n`);
});
