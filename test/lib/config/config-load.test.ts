// loadConfig/loadConfigFile in-process: defaults, file values, where the
// file is looked for, and every kind of bad config naming file:line:key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig, loadConfigFile } from "../../../lib/config/load.ts";
import { DEFAULT_CONFIG } from "../../../lib/config/schema.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-config-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(text: string): string {
  const p = path.join(dir, `c${n++}.yaml`);
  writeFileSync(p, text);
  return p;
}

async function bad(text: string): Promise<ConfigError> {
  const p = file(text);
  try {
    await loadConfig({ CORRAL_CONFIG: p });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(!error.message.includes("\n"), `one line: ${error.message}`);
    assert.ok(error.message.startsWith(`${p}:`), error.message);
    return error;
  }
  assert.fail(`expected a ConfigError for ${JSON.stringify(text)}`);
}

test("no file at the default path: built-in defaults", async () => {
  const loaded = await loadConfigFile({ XDG_CONFIG_HOME: path.join(dir, "none") });
  assert.deepEqual(loaded.config, DEFAULT_CONFIG);
  assert.equal(loaded.file, null);
  assert.equal(loaded.path, path.join(dir, "none", "corral", "config.yaml"));
});

test("an empty file or one with only comments: defaults", async () => {
  assert.deepEqual(await loadConfig({ CORRAL_CONFIG: file("") }), DEFAULT_CONFIG);
  assert.deepEqual(await loadConfig({ CORRAL_CONFIG: file("# nothing yet\n") }), DEFAULT_CONFIG);
});

test("every key read from the file, in the units people type", async () => {
  const p = file([
    "grace: 250ms",
    "max-bytes: 10M",
    "head-bytes: 4096",
    "env:",
    "  scrub: ['*TOKEN*', 'MY_*']",
    "  keep: [GITHUB_TOKEN]",
    "guardian: never",
    "scrub: false",
    "quiet: true",
    "heartbeat: 1m30s",
    "terminal: { cols: 132, rows: 50, term: screen-256color }",
    "agent:",
    "  idle-timeout: 2m",
    "  orphan-wait: 45s",
    "hosts:",
    "  box: ci@testbox:/opt/corral/bin/corral",
  ].join("\n"));
  const loaded = await loadConfigFile({ CORRAL_CONFIG: p });
  assert.equal(loaded.file, p);
  assert.deepEqual(loaded.config, {
    graceMs: 250,
    maxBytes: 10 * 1024 * 1024,
    headBytes: 4096,
    env: { scrub: ["*TOKEN*", "MY_*"], keep: ["GITHUB_TOKEN"] },
    guardian: "never",
    scrub: false,
    quiet: true,
    heartbeat: 90_000,
    terminal: { cols: 132, rows: 50, term: "screen-256color" },
    agent: { idleTimeoutMs: 120_000, orphanWaitMs: 45_000 },
    hosts: { box: "ci@testbox:/opt/corral/bin/corral" },
  });
});

test("bare numbers: seconds for durations, bytes for sizes", async () => {
  const config = await loadConfig({ CORRAL_CONFIG: file("grace: 2\nmax-bytes: 1000\n") });
  assert.equal(config.graceMs, 2000);
  assert.equal(config.maxBytes, 1000);
});

test("scrub/keep replace the defaults; scrub-extra/keep-extra add to them", async () => {
  const extra = await loadConfig({ CORRAL_CONFIG: file("env:\n  scrub-extra: [MY_*]\n  keep-extra: [GH_TOKEN]\n") });
  assert.deepEqual(extra.env.scrub, [...DEFAULT_CONFIG.env.scrub, "MY_*"]);
  assert.deepEqual(extra.env.keep, [...DEFAULT_CONFIG.env.keep, "GH_TOKEN"]);
  const both = await loadConfig({ CORRAL_CONFIG: file("env:\n  scrub-extra: [B_*]\n  scrub: [A_*]\n") });
  assert.deepEqual(both.env.scrub, ["A_*", "B_*"]);
  const none = await loadConfig({ CORRAL_CONFIG: file("env:\n  scrub: []\n") });
  assert.deepEqual(none.env.scrub, []);
});

test("terminal size at its edges: 1 and 1000 accepted, 0 and 1001 refused", async () => {
  const edges = await loadConfig({ CORRAL_CONFIG: file("terminal: { cols: 1, rows: 1000 }\n") });
  assert.deepEqual(edges.terminal, { ...DEFAULT_CONFIG.terminal, cols: 1, rows: 1000 });
  assert.match((await bad("terminal:\n  cols: 0\n")).message, /:2: terminal\.cols: "0" is not a whole number from 1 to 1000$/);
  assert.match((await bad("terminal:\n  rows: 1001\n")).message, /:2: terminal\.rows: "1001" is not/);
});

test("where the file is: $CORRAL_CONFIG, else $XDG_CONFIG_HOME, else ~/.config", async () => {
  const xdg = path.join(dir, "xdg");
  const home = path.join(dir, "home");
  mkdirSync(path.join(xdg, "corral"), { recursive: true });
  mkdirSync(path.join(home, ".config", "corral"), { recursive: true });
  writeFileSync(path.join(xdg, "corral", "config.yaml"), "grace: 1s\n");
  writeFileSync(path.join(home, ".config", "corral", "config.yaml"), "grace: 2s\n");
  const named = file("grace: 3s\n");
  assert.equal((await loadConfig({ CORRAL_CONFIG: named, XDG_CONFIG_HOME: xdg, HOME: home })).graceMs, 3000);
  assert.equal((await loadConfig({ XDG_CONFIG_HOME: xdg, HOME: home })).graceMs, 1000);
  assert.equal((await loadConfig({ HOME: home })).graceMs, 2000);
  // The XDG spec says a relative $XDG_CONFIG_HOME is ignored.
  assert.equal((await loadConfig({ XDG_CONFIG_HOME: "rel/dir", HOME: home })).graceMs, 2000);
  // An empty $CORRAL_CONFIG counts as unset.
  assert.equal((await loadConfig({ CORRAL_CONFIG: "", XDG_CONFIG_HOME: xdg })).graceMs, 1000);
});

test("a file named by $CORRAL_CONFIG must exist", async () => {
  const missing = path.join(dir, "missing.yaml");
  await assert.rejects(loadConfig({ CORRAL_CONFIG: missing }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /missing\.yaml: does not exist \(named by \$CORRAL_CONFIG\)/);
    return true;
  });
  await assert.rejects(loadConfig({ CORRAL_CONFIG: dir }), /is a directory/);
});

test("bad configs: each names the file, the line and the key, on one line", async () => {
  const cases: [string, RegExp][] = [
    ["grace: 2s\nmax-bytes: 10q\n", /:2: max-bytes: "10q" is not a size; use /],
    ["head-bytes: -1\n", /:1: head-bytes: "-1" is not a size/],
    ["grace: soon\n", /:1: grace: "soon" is not a duration; use /],
    ["grace:\n", /:1: grace: has no value; use a duration/],
    ["grace: [1s]\n", /:1: grace: expected a duration such as 250ms, 10s or 2m, got a list/],
    ["colour: red\n", /:1: colour: unknown key; use one of grace, max-bytes, head-bytes, env, guardian, scrub, quiet, heartbeat, terminal, agent, hosts$/],
    ["hosts: [box]\n", /:1: hosts: hosts must be a mapping of names to \[user@\]machine\[:path-to-corral\]$/],
    ["hosts:\n  box: two words\n", /:2: hosts\.box: /],
    ["heartbeat: sometimes\n", /:1: heartbeat: "sometimes" is not a duration/],
    ["terminal:\n  colums: 80\n", /:2: terminal\.colums: unknown key; use one of cols, rows, term$/],
    ["terminal: 80x24\n", /:1: terminal: terminal must be a mapping/],
    ["guardian: sometimes\n", /:1: guardian: "sometimes" is not valid; use one of auto, always, never$/],
    ["terminal:\n  term: xterm 256\n", /:2: terminal\.term: "xterm 256" is not a non-empty word/],
    ["env:\n  scrub: '*TOKEN*'\n", /:2: env\.scrub: expected a list of variable names or \* globs/],
    ["env:\n  keep:\n    - GOOD\n    - 'BAD=1'\n", /:4: env\.keep\[1\]: "BAD=1" is not valid; use a list of variable names or \* globs/],
    ["agent:\n  idle-timeout: 0s\n", /:2: agent\.idle-timeout: "0s" is too short/],
    ["grace: 1s\ngrace: 2s\n", /:2: grace: not valid YAML: Map keys must be unique/],
    ["grace: 1s\nmax-bytes: [1\n", /: not valid YAML: /],
    ["- grace: 1s\n", /:1: the file must be a mapping of keys/],
  ];
  for (const [text, expected] of cases) {
    const error = await bad(text);
    assert.match(error.message, expected, `for ${JSON.stringify(text)}`);
  }
});

test("a value in an error is shown, never more than a short excerpt", async () => {
  const error = await bad(`grace: ${"x".repeat(500)}\n`);
  assert.ok(error.message.length < 400, error.message);
});
