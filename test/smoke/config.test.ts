// `corral config` reading a YAML file under each runtime: the yaml parser is
// loaded lazily, which is exactly what differs between Node's bundle, Deno
// and Bun.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corral, runtime } from "../support/corral-cli.ts";

test(`corral config reads the YAML file and reports a bad one under ${runtime}`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-config-smoke-"));
  try {
    const good = path.join(dir, "good.yaml");
    writeFileSync(good, "grace: 1500ms\nguardian: never\n");
    const ok = await corral(["config", "--json"], { env: { CORRAL_CONFIG: good } });
    assert.equal(ok.code, 0, ok.stderr);
    const json = JSON.parse(ok.stdout.toString()) as { file: string; config: { graceMs: number; guardian: string } };
    assert.deepEqual([json.file, json.config.graceMs, json.config.guardian], [good, 1500, "never"]);

    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, "terminal:\n  rows: 0\n");
    const failed = await corral(["config"], { env: { CORRAL_CONFIG: bad } });
    assert.equal(failed.code, 2);
    assert.equal(failed.stderr, `corral: ${bad}:2: terminal.rows: "0" is not a whole number from 1 to 1000\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
