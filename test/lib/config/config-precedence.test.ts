// Defaults < config file < flags, seen through the commands that use the
// config: collect's head/tail sizes and run's environment scrubbing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-config-prec-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

const HUNDRED_X = ["sh", "-c", "head -c 100 /dev/zero | tr '\\0' x"];

interface Collected {
  stdout: { bytes: number; head: string; tail: string };
}

async function collect(env: Record<string, string | undefined>, ...flags: string[]): Promise<Collected> {
  const result = await corral(["collect", "--json", ...flags, "--", ...HUNDRED_X], { env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout.toString()) as Collected;
}

test("collect: sizes from the config file, and a flag beats the file", async () => {
  const file = path.join(dir, "sizes.yaml");
  writeFileSync(file, "max-bytes: 10\nhead-bytes: 5\n");
  const fromFile = await collect({ CORRAL_CONFIG: file });
  assert.deepEqual([fromFile.stdout.bytes, fromFile.stdout.head.length, fromFile.stdout.tail.length], [100, 5, 10]);
  const flagged = await collect({ CORRAL_CONFIG: file }, "--max-bytes", "20");
  assert.deepEqual([flagged.stdout.head.length, flagged.stdout.tail.length], [5, 20]);
  // No file: the built-in defaults (64KiB head) keep all 100 bytes in the head.
  const defaults = await collect({ CORRAL_CONFIG: undefined, XDG_CONFIG_HOME: path.join(dir, "none") });
  assert.equal(defaults.stdout.head.length + defaults.stdout.tail.length, 100);
});

test("run: env.scrub-extra drops more names, env.keep-extra keeps one, --keep-env beats the file", async () => {
  const file = path.join(dir, "env.yaml");
  writeFileSync(file, "env:\n  scrub-extra: [MY_COMPANY_*]\n  keep-extra: [CI_JOB_TOKEN]\n");
  const show = ["sh", "-c", 'echo "${MY_COMPANY_DSN-unset} ${CI_JOB_TOKEN-unset} ${OTHER_TOKEN-unset}"'];
  const env = { CORRAL_CONFIG: file, MY_COMPANY_DSN: "dsn-value", CI_JOB_TOKEN: "job-value", OTHER_TOKEN: "other" };
  const plain = await corral(["run", "--", ...show], { env });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout.toString(), "unset job-value unset\n");
  const kept = await corral(["run", "--keep-env", "MY_COMPANY_DSN", "--", ...show], { env });
  assert.equal(kept.stdout.toString(), "dsn-value job-value unset\n");
});

test("a bad config file stops run and collect with exit 2 before anything runs", async () => {
  const file = path.join(dir, "bad.yaml");
  writeFileSync(file, "grace: soon\n");
  for (const command of ["run", "collect"]) {
    const marker = path.join(dir, `${command}-ran`);
    const result = await corralInProcess([command, "--", "touch", marker], { env: { CORRAL_CONFIG: file } });
    assert.equal(result.code, 2, `${command}: ${result.stderr}`);
    assert.match(result.stderr, new RegExp(`^corral: .*bad\\.yaml:1: grace: "soon" is not a duration; use .+\\n$`));
    assert.equal(existsSync(marker), false, `${command} ran the command despite the bad config`);
  }
});
