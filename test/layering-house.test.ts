// The house rules of the layering checker (test/support/layering/house.ts and
// the folder-cycle rule in rules.ts), as `npm run lint` runs them: each
// violation planted in a copy of the real lib/ and cli/ fails the checker's
// command with its rule's line (an arrow back up the floors, a type import
// too; `Deno.` and the runtime question outside lib/runtime; a backend folder
// of the supervisor imported from lib/pty), and the folder-cycle rule's one
// allowance (a folder and its direct subfolders) is shown on small trees.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "./support/corral-cli.ts";
import { checkLayers } from "./support/layering/rules.ts";
import { FLOORS, floorOf } from "./support/layering/house.ts";

const script = path.join(repoRoot, "test", "support", "check-layers.ts");

function scratch(t: TestContext): string {
  const root = mkdtempSync(path.join(tmpdir(), "corral-house-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

function plant(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

/** A copy of the real lib/ and cli/ with `files` planted in it. */
function realTreeWith(t: TestContext, files: Record<string, string>): string {
  const root = scratch(t);
  for (const dir of ["lib", "cli"]) cpSync(path.join(repoRoot, dir), path.join(root, dir), { recursive: true });
  plant(root, files);
  return root;
}

/** The checker's command on `root`: its status and its stderr lines. */
function lint(root: string): { status: number | null; lines: string[] } {
  const ran = spawnSync(process.execPath, ["--import", "tsx", script, root], { cwd: repoRoot, encoding: "utf8" });
  return { status: ran.status, lines: ran.stderr.split("\n").filter((l) => l.startsWith("layering (")) };
}

test("the real tree is on the floors: every lib/ folder has one, and the copy the plants go into passes", (t) => {
  const root = realTreeWith(t, {});
  assert.deepEqual(lint(root), { status: 0, lines: [] });
  assert.equal(floorOf("lib/supervise/guardian/client.ts"), floorOf("lib/supervise/spec.ts"), "a nested folder is on its folder's floor");
  assert.ok((floorOf("lib/core/size.ts") as number) < (floorOf("lib/runtime/traits.ts") as number));
  assert.equal(floorOf("cli/main.ts"), FLOORS.length - 1);
});

test("a planted arrow back up the floors fails lint, a type-only import as much as any", (t) => {
  const root = realTreeWith(t, {
    "lib/output/planted.ts": '// Planted.\nimport type { SpawnSpec } from "../supervise/spec.ts";\nexport type S = SpawnSpec;\n',
    "lib/core/planted.ts": '// Planted.\nexport const lazy = () => import("../pty/keys.ts");\n',
  });
  const { status, lines } = lint(root);
  assert.equal(status, 1);
  const rank = lines.filter((l) => l.startsWith("layering (folder-rank): "));
  assert.deepEqual(rank.map((l) => l.replace(/, an arrow.*/, "")).sort(), [
    "layering (folder-rank): lib/core/planted.ts:2: imports lib/pty/keys.ts (import())",
    "layering (folder-rank): lib/output/planted.ts:2: imports lib/supervise/spec.ts",
  ]);
  // The arrow back up also closes folder cycles; those are said too.
  assert.ok(lines.every((l) => /^layering \((folder-rank|folder-cycle)\): /.test(l)), lines.join("\n"));
  assert.match(rank.find((l) => l.includes("lib/core/planted.ts")) ?? "", /an arrow back up from lib\/core to lib\/pty; the floors, lowest first: core < runtime < proc\/env\/config < output < supervise < pty\/jobs < agent < view < cli;/);
});

test("a planted Deno. or Bun. outside lib/runtime fails lint, and so does asking which runtime this is", (t) => {
  const root = realTreeWith(t, {
    "lib/supervise/planted.ts": [
      "// Planted. Deno.pid in a comment does not count, nor \"Bun.version\" in a string.",
      "export const pid = () => Deno.pid;",
      'export const onBun = () => "Bun" in globalThis;',
      "export const version = () => process.versions.bun;",
      'import { currentRuntime } from "../runtime/runtime-name.ts";',
      "export const which = currentRuntime;",
    ].join("\n"),
    "cli/planted.ts": "// Planted.\nexport const b = (globalThis as { Bun?: unknown }).Bun ?? globalThis.Deno;\n",
  });
  const { status, lines } = lint(root);
  assert.equal(status, 1);
  const seam = lines.filter((l) => l.startsWith("layering (runtime-seam): ")).map((l) => l.replace(/^layering \(runtime-seam\): /, "").replace(/ outside lib\/runtime\/.*/, ""));
  assert.deepEqual(seam, [
    "cli/planted.ts:2: reads globalThis.Deno",
    "lib/supervise/planted.ts:2: uses Deno.",
    'lib/supervise/planted.ts:3: asks "Bun" in ...',
    "lib/supervise/planted.ts:4: reads versions.bun",
    "lib/supervise/planted.ts:5: asks currentRuntime()",
    "lib/supervise/planted.ts:5: imports lib/runtime/runtime-name.ts",
    "lib/supervise/planted.ts:6: asks currentRuntime()",
  ]);
  assert.match(lines.find((l) => l.includes("runtime-seam")) ?? "", /decide by a trait of lib\/runtime\/traits\.ts/);
});

test("a planted import of a supervisor's backend folder from lib/pty fails lint; lib/supervise itself may", (t) => {
  const root = realTreeWith(t, {
    "lib/pty/planted.ts": '// Planted.\nimport { locateGuardian } from "../supervise/guardian/binary.ts";\nexport const l = locateGuardian;\n',
    "lib/pty/planted-type.ts": '// Planted.\nimport type { GroupSweep } from "../supervise/process-group/terminate.ts";\nexport type G = GroupSweep;\n',
    "lib/supervise/planted.ts": '// Planted.\nimport { locateGuardian } from "./guardian/binary.ts";\nexport const l = locateGuardian;\n',
  });
  const { status, lines } = lint(root);
  assert.equal(status, 1);
  assert.deepEqual(lines.map((l) => l.replace(/, a backend of the supervisor.*/, "")), [
    "layering (backend-folder): lib/pty/planted-type.ts:2: imports lib/supervise/process-group/terminate.ts",
    "layering (backend-folder): lib/pty/planted.ts:2: imports lib/supervise/guardian/binary.ts",
  ]);
});

/** A small tree of one-line modules: file -> what it imports. */
function tree(t: TestContext, imports: Record<string, string[]>): string {
  const root = scratch(t);
  plant(root, Object.fromEntries(Object.entries(imports).map(([file, targets]) => [
    file,
    `// A file.\n${targets.map((to, k) => `import { v as v${k} } from "${path.posix.relative(path.posix.dirname(file), to).replace(/^(?!\.)/, "./")}";\n`).join("")}export const v = 1;\n`,
  ])));
  return root;
}

test("a folder and its direct subfolders may import each other; a cycle reaching deeper or across siblings is caught", (t) => {
  // A router and its handlers/, the handlers naming the router's context.
  assert.deepEqual(checkLayers(tree(t, {
    "lib/agent/router.ts": ["lib/agent/handlers/open.ts", "lib/agent/adoption/adopt.ts"],
    "lib/agent/handlers/open.ts": ["lib/agent/context.ts"],
    "lib/agent/adoption/adopt.ts": ["lib/agent/context.ts"],
    "lib/agent/context.ts": [],
  })), []);
  // The table of commands and a command that loads the table (cli/registry.ts and completions, before).
  const deeper = checkLayers(tree(t, {
    "cli/registry.ts": ["cli/commands/completions/impl.ts"],
    "cli/commands/completions/impl.ts": ["cli/registry.ts"],
  }));
  assert.deepEqual(deeper.map((v) => v.rule), ["folder-cycle"]);
  assert.match(deeper[0]?.message ?? "", /cli -> cli\/commands\/completions -> cli/);
  // Two sibling subfolders importing each other through their parent.
  const siblings = checkLayers(tree(t, {
    "lib/agent/router.ts": ["lib/agent/handlers/open.ts"],
    "lib/agent/handlers/open.ts": ["lib/agent/adoption/record.ts"],
    "lib/agent/adoption/record.ts": ["lib/agent/router.ts"],
  }));
  assert.deepEqual(siblings.map((v) => v.rule), ["folder-cycle"]);
  // Through a folder outside: lib/output -> lib/supervise -> lib/supervise/process-group -> lib/output.
  const outside = checkLayers(tree(t, {
    "lib/output/tee.ts": ["lib/supervise/spec.ts"],
    "lib/supervise/spec.ts": ["lib/supervise/process-group/pipes.ts"],
    "lib/supervise/process-group/pipes.ts": ["lib/output/channel.ts"],
    "lib/output/channel.ts": [],
  })).map((v) => v.rule).sort();
  assert.deepEqual(outside, ["folder-cycle", "folder-rank"]);
});

test("a lib/ folder on no floor is named, so a new folder gets its place", (t) => {
  const violations = checkLayers(tree(t, { "lib/newfolder/x.ts": ["lib/core/y.ts"], "lib/core/y.ts": [] }));
  assert.deepEqual(violations.map((v) => v.rule), ["folder-rank"]);
  assert.match(violations[0]?.message ?? "", /lib\/newfolder\/x\.ts is in no floor of the house; add its folder to FLOORS/);
});
