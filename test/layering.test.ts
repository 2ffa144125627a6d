// The layering checker (test/support/check-layers.ts, run by `npm run lint`):
// each rule caught on a small fixture tree in a temp dir, a clean fixture
// passing, and the real tree passing.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "./support/corral-cli.ts";
import { importsOf } from "./support/layering/import-scan.ts";
import { checkLayers, lineCount } from "./support/layering/rules.ts";

/** A tree of files in a fresh temp dir, removed when the test ends. */
function fixture(t: TestContext, files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "corral-layering-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** `n` lines, the first ones being `opening`. */
function linesOf(n: number, opening: string[] = ["// A file."]): string {
  const body = Array.from({ length: n - opening.length }, (_, i) => `export const v${i} = ${i};`);
  return [...opening, ...body].join("\n") + "\n";
}

/** A tree that keeps every rule, including the parts a rule must let through. */
const CLEAN: Record<string, string> = {
  "lib/config/x.ts": 'import { y } from "../env/y.ts";\nexport const x = y;\n',
  "lib/env/y.ts": [
    "// Mentions that do not import: // import { m } from \"../../cli/main.ts\";",
    "/* import { m } from \"../config/x.ts\" */",
    'export const y = "import { m } from \'../../cli/main.ts\'";',
    "export const t = `import(\"../config/x.ts\") ${`nested ${'import \"../config/x.ts\"'}`}`;",
    "export const r = /[\"'`]import\\(\"..\\/config\\/x.ts\"\\)/g;",
    "export const half = 1 / 2; export const third = 1 / 3;",
  ].join("\n"),
  // A folder and the folders inside it are one place: router and handlers.
  "lib/agent/router.ts": 'import { h } from "./handlers/h.ts";\nexport type Op = "h";\nexport const route = h;\n',
  "lib/agent/handlers/h.ts": 'import type { Op } from "../router.ts";\nexport const h: Op = "h";\n',
  // The protocol folder may name a type from a file that uses Node, and mention process.env in a string.
  "lib/agent/protocol/table.ts": 'import type { Big } from "../../env/node-user.ts";\nexport const s: Big | string = "process.env"; // Deno.env\n',
  "lib/env/node-user.ts": 'import fs from "node:fs";\nexport type Big = typeof fs;\n',
  "cli/main.ts": 'import { x } from "../lib/config/x.ts";\nimport { run } from "./commands/run/command.ts";\nexport { x, run };\n',
  "cli/shared/flag-parsers/duration.ts": "export const duration = (s: string) => Number(s);\n",
  "cli/shared/hold.ts": "export const hold = 1;\n",
  "cli/commands/run/flags.ts": 'import { duration } from "../../shared/flag-parsers/duration.ts";\nexport const flags = { duration };\n',
  "cli/commands/run/impl.ts": 'import { hold } from "../../shared/hold.ts";\nexport default hold;\n',
  "cli/commands/run/command.ts": [
    'import { buildCommand } from "@stricli/core";',
    'import { flags } from "./flags.ts";',
    'import { duration } from "../../shared/flag-parsers/duration.ts";',
    'export const run = buildCommand({ loader: () => import("./impl.ts"), parameters: { flags, duration } });',
  ].join("\n"),
  // A command with subcommands: one implementation file each, loaded lazily; a
  // subcommand group in a folder below, which may use the group's flags.
  "cli/commands/pty/flags.ts": "export const socket = {};\n",
  "cli/commands/pty/open.ts": "export default 1;\n",
  "cli/commands/pty/send.ts": "export default 2;\n",
  "cli/commands/pty/command.ts": [
    'import { socket } from "./flags.ts";',
    'import { debug } from "./debug/command.ts";',
    'export const pty = { socket, debug, open: () => import("./open.ts"), send: () => import("./send.ts") };',
  ].join("\n"),
  "cli/commands/pty/debug/record.ts": "export default 3;\n",
  "cli/commands/pty/debug/command.ts": [
    'import { socket } from "../flags.ts";',
    'export const debug = { socket, record: () => import("./record.ts") };',
  ].join("\n"),
  "cli/long-with-reason.ts": linesOf(400, ["// Does a long thing.", "// Longer than 300 lines because the table of 400 entries reads best whole."]),
  "cli/exactly-300.ts": linesOf(300),
};

test("a clean tree passes, including nested folders, mentions in comments and strings, and a long file with its reason", (t) => {
  assert.deepEqual(checkLayers(fixture(t, CLEAN)), []);
});

test("the import scanner finds static, type, re-export, side-effect and dynamic imports, and nothing in comments or strings", () => {
  const source = [
    'import a, { b, type C } from "./a.ts";',
    'import type {',
    '  D,',
    '} from "./d.ts";',
    'import "./side.ts";',
    'export * as ns from "./ns.ts";',
    'export { e } from "./e.ts";',
    'export const lazy = () => import("./lazy.ts");',
    'type T = typeof import("./t.ts");',
    '// import { no } from "./comment.ts";',
    'const s = "import { no } from \'./string.ts\'"; const u = import.meta.url;',
    'const re = /"/; export { re }; const q = `${"`"}import "./template.ts"`;',
    'export const f = 1; const g = x.import("./method.ts");',
  ].join("\n");
  assert.deepEqual(
    importsOf(source).map((r) => [r.specifier, r.dynamic, r.line]),
    [
      ["./a.ts", false, 1], ["./d.ts", false, 4], ["./side.ts", false, 5], ["./ns.ts", false, 6],
      ["./e.ts", false, 7], ["./lazy.ts", true, 8], ["./t.ts", true, 9],
    ],
  );
});

test("an import cycle between two folders is caught, naming both imports", (t) => {
  const root = fixture(t, { ...CLEAN, "lib/env/back.ts": 'import { x } from "../config/x.ts";\nexport const back = x;\n' });
  const [v, ...rest] = checkLayers(root);
  assert.deepEqual(rest, []);
  assert.equal(v?.rule, "folder-cycle");
  assert.match(v.message, /lib\/config -> lib\/env -> lib\/config/);
  assert.match(v.message, /lib\/config\/x\.ts:1 imports lib\/env\/y\.ts/);
  assert.match(v.message, /lib\/env\/back\.ts:1 imports lib\/config\/x\.ts/);
});

test("a cycle through three folders, closed by a type-only import, is caught", (t) => {
  const root = fixture(t, {
    ...CLEAN,
    "lib/env/to-c.ts": 'export { c } from "../proc/c.ts";\n',
    "lib/proc/c.ts": 'import type { x } from "../config/x.ts";\nexport const c: typeof x = 1;\n',
  });
  const violations = checkLayers(root);
  assert.deepEqual(violations.map((v) => v.rule), ["folder-cycle"]);
  assert.match(violations[0]?.message ?? "", /lib\/config -> lib\/env -> lib\/proc -> lib\/config/);
});

test("lib/ importing cli/ is caught, a type-only or a lazy import as much as any", (t) => {
  const root = fixture(t, {
    ...CLEAN,
    "lib/env/status.ts": 'import type { run } from "../../cli/commands/run/command.ts";\nexport type R = typeof run;\n',
    "lib/env/lazy.ts": 'export const load = () => import("../../cli/shared/hold.ts");\n',
  });
  const violations = checkLayers(root).filter((v) => v.rule === "lib-imports-cli");
  assert.deepEqual(violations.map((v) => v.rule), ["lib-imports-cli", "lib-imports-cli"]);
  assert.match(violations[0]?.message ?? "", /^lib\/env\/lazy\.ts:1: lib\/ imports cli\/ \(cli\/shared\/hold\.ts\)/);
  assert.match(violations[1]?.message ?? "", /^lib\/env\/status\.ts:1: lib\/ imports cli\/ \(cli\/commands\/run\/command\.ts\)/);
});

test("a file over 300 lines is caught unless its opening comment gives the reason", (t) => {
  const root = fixture(t, {
    ...CLEAN,
    "lib/config/301.ts": linesOf(301),
    // The reason below the opening comment does not count.
    "lib/config/late-reason.ts": linesOf(320, ["// Opening.", "", "// Longer than 300 lines because it is late."]),
    // The phrase with no reason after it does not count either.
    "cli/empty-reason.ts": linesOf(310, ["// Longer than 300 lines because"]),
    // Tests are held to it as well.
    "test/long.test.ts": linesOf(302),
  });
  const violations = checkLayers(root);
  assert.deepEqual(violations.map((v) => v.rule), Array(4).fill("long-file"));
  assert.deepEqual(
    violations.map((v) => v.message.split(":")[0]),
    ["lib/config/301.ts", "lib/config/late-reason.ts", "cli/empty-reason.ts", "test/long.test.ts"],
  );
  assert.match(violations[0]?.message ?? "", /301 lines, over 300/);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount("a\nb\n"), 2);
});

test("a command.ts importing more than its flags and the shared flag parsers is caught", (t) => {
  const root = fixture(t, {
    ...CLEAN,
    "cli/exit-status.ts": "export const USAGE = 2;\n",
    "cli/commands/jobs/flags.ts": "export const flags = {};\n",
    "cli/commands/jobs/command.ts": [
      'import { flags } from "./flags.ts";',
      'import { USAGE } from "../../exit-status.ts";', // not a flag parser
      'import impl from "./impl.ts";', // impl eagerly, not through import()
      'import { flags as runFlags } from "../run/flags.ts";', // another command's flags
      'import { hold } from "../../shared/hold.ts";', // shared, but not a flag parser
      'import type { Context } from "../../context.ts";', // the context type comes through ./flags.ts
      'const lazy = () => import("../run/impl.ts");', // another command's implementation
      'const sub = () => import("./sub/command.ts");', // a definition is not loaded lazily
      "export const jobs = { flags, USAGE, impl, runFlags, hold, lazy, sub };",
    ].join("\n"),
    "cli/commands/jobs/impl.ts": "export default 1;\n",
    "cli/commands/jobs/sub/command.ts": "export default 1;\n",
    "cli/context.ts": "export type Context = object;\n",
  });
  const violations = checkLayers(root);
  assert.deepEqual(violations.map((v) => v.rule), Array(7).fill("command-imports"));
  assert.deepEqual(violations.map((v) => v.message.split(": ")[0]), [2, 3, 4, 5, 6, 7, 8].map((n) => `cli/commands/jobs/command.ts:${n}`));
  assert.match(violations[1]?.message ?? "", /not cli\/commands\/jobs\/impl\.ts$/);
});

test("the agent's protocol folder loading a runtime API, itself or through a file it imports, is caught", (t) => {
  const root = fixture(t, {
    ...CLEAN,
    "lib/agent/protocol/direct.ts": 'import net from "node:net";\nexport const n = net;\n',
    "lib/agent/protocol/frames.ts": 'import { read } from "../../env/reader.ts";\nexport const f = () => { read("x"); process.exit(1); };\n',
    "lib/env/reader.ts": 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
    "lib/agent/protocol/bun.ts": "export const b = () => Bun.version;\n",
  });
  const violations = checkLayers(root).filter((v) => v.rule === "runtime-api");
  assert.deepEqual(violations.map((v) => v.rule), Array(4).fill("runtime-api"));
  assert.deepEqual(violations.map((v) => v.message.split(": ")[0]), [
    "lib/agent/protocol/bun.ts:1", "lib/agent/protocol/direct.ts:1", "lib/agent/protocol/frames.ts:2", "lib/env/reader.ts:1",
  ]);
  assert.match(violations[1]?.message ?? "", /uses node:net, but lib\/agent\/protocol\/direct\.ts must load no runtime API/);
  assert.match(violations[2]?.message ?? "", /uses process\./);
  assert.match(violations[3]?.message ?? "", /uses node:fs, .*loaded via lib\/agent\/protocol\/frames\.ts -> lib\/env\/reader\.ts/);
  assert.deepEqual(
    importsOf('import type { A } from "./a.ts";\nexport type * from "./b.ts";\nimport { type C } from "./c.ts";\nimport type from "./d.ts";\n').map((r) => r.typeOnly),
    [true, true, false, false],
  );
});

test("the real tree keeps the layers", () => {
  assert.deepEqual(checkLayers(repoRoot).map((v) => v.message), []);
});

test("the checker's command exits 1 with one line per violation, and 0 on the real tree", (t) => {
  const script = path.join(repoRoot, "test", "support", "check-layers.ts");
  const bad = fixture(t, { ...CLEAN, "lib/config/bad.ts": 'import "../../cli/main.ts";\n' });
  const failed = spawnSync(process.execPath, ["--import", "tsx", script, bad], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(failed.status, 1, failed.stderr);
  assert.match(failed.stderr, /^layering \(folder-cycle\): /m);
  assert.match(failed.stderr, /^layering \(lib-imports-cli\): lib\/config\/bad\.ts:1: /m);
  const passed = spawnSync(process.execPath, ["--import", "tsx", script], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(passed.stderr, "");
  assert.equal(passed.status, 0);
});
