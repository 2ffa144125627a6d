// `corral config` end to end: YAML and JSON output, the file it came from,
// --path, and a bad config as one line with exit status 2.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { DEFAULT_CONFIG } from "../../../lib/config/schema.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-config-cli-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const noFile = { CORRAL_CONFIG: undefined, XDG_CONFIG_HOME: path.join(dir, "empty-xdg") };

test("no config file: the defaults as YAML, saying no file was found", async () => {
  const result = await corral(["config"], { env: noFile });
  assert.equal(result.code, 0, result.stderr);
  const text = result.stdout.toString();
  const expectedPath = path.join(dir, "empty-xdg", "corral", "config.yaml");
  assert.equal(text.split("\n")[0], `# corral config: built-in defaults (no file at ${expectedPath})`);
  assert.match(text, /^grace: 5s$/m);
  assert.match(text, /^max-bytes: 1MiB$/m);
  assert.match(text, /^head-bytes: 64KiB$/m);
  assert.match(text, /^ {2}idle-timeout: 5m$/m);
});

test("the YAML output loads back as a config file to the same values", async () => {
  const first = await corral(["config"], { env: noFile });
  const saved = path.join(dir, "saved.yaml");
  writeFileSync(saved, first.stdout);
  const again = await corral(["config", "--json"], { env: { CORRAL_CONFIG: saved } });
  assert.equal(again.code, 0, again.stderr);
  const json = JSON.parse(again.stdout.toString()) as { file: string; config: unknown };
  assert.equal(json.file, saved);
  assert.deepEqual(json.config, DEFAULT_CONFIG);
});

test("values from the XDG file, named in the output; --json in ms and bytes", async () => {
  const xdg = path.join(dir, "xdg");
  mkdirSync(path.join(xdg, "corral"), { recursive: true });
  const file = path.join(xdg, "corral", "config.yaml");
  writeFileSync(file, "grace: 250ms\nmax-bytes: 10M\nterminal:\n  cols: 132\n");
  const yaml = await corral(["config"], { env: { CORRAL_CONFIG: undefined, XDG_CONFIG_HOME: xdg } });
  assert.equal(yaml.code, 0, yaml.stderr);
  const text = yaml.stdout.toString();
  assert.equal(text.split("\n")[0], `# corral config: from ${file}`);
  assert.match(text, /^grace: 250ms$/m);
  assert.match(text, /^max-bytes: 10MiB$/m);
  assert.match(text, /^ {2}cols: 132$/m);
  const json = await corral(["config", "--json"], { env: { CORRAL_CONFIG: undefined, XDG_CONFIG_HOME: xdg } });
  const parsed = JSON.parse(json.stdout.toString()) as { file: string; config: typeof DEFAULT_CONFIG };
  assert.equal(parsed.file, file);
  assert.equal(parsed.config.graceMs, 250);
  assert.equal(parsed.config.maxBytes, 10 * 1024 * 1024);
  assert.equal(parsed.config.terminal.cols, 132);
});

test("--path prints the file corral reads, even when it is broken or missing", async () => {
  const broken = path.join(dir, "broken.yaml");
  writeFileSync(broken, "grace: [\n");
  const named = await corral(["config", "--path"], { env: { CORRAL_CONFIG: broken } });
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout.toString(), `${broken}\n`);
  const missing = await corral(["config", "--path"], { env: noFile });
  assert.equal(missing.stdout.toString(), `${path.join(dir, "empty-xdg", "corral", "config.yaml")}\n`);
});

test("a bad config: exit 2, one line naming file, line and key", async () => {
  const file = path.join(dir, "bad.yaml");
  writeFileSync(file, "# defaults for CI\ngrace: 2s\nmax-bytes: \"10q\"\n");
  const result = await corralInProcess(["config"], { env: { CORRAL_CONFIG: file } });
  assert.equal(result.code, 2);
  assert.equal(result.stdout.length, 0);
  assert.match(result.stderr, new RegExp(`^corral: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3: max-bytes: "10q" is not a size; use .+\n$`));
});

test("$CORRAL_CONFIG naming a missing file: exit 2, one line", async () => {
  const file = path.join(dir, "nope.yaml");
  const result = await corralInProcess(["config", "--json"], { env: { CORRAL_CONFIG: file } });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, `corral: ${file}: does not exist (named by $CORRAL_CONFIG); create it or unset CORRAL_CONFIG\n`);
});
