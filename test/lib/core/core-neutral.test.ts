// lib/core is vocabulary with no runtime API (DESIGN.md section 3): its own
// tsconfig has no Node types, so `npm run typecheck` (tsc -p lib/core) fails
// when a core file reaches for node:*, process or Buffer. Checked here on a
// copy of lib/core: the copy compiles, and each kind of reach is refused.
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";

const TSC = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");

/** A copy of tsconfig.json, the package type and lib/core in a temp dir, plus `extra` files in its lib/core. */
function coreCopy(t: TestContext, extra: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "corral-core-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  cpSync(path.join(repoRoot, "tsconfig.json"), path.join(root, "tsconfig.json"));
  // The repository is an ES module package (NodeNext reads this).
  writeFileSync(path.join(root, "package.json"), '{"type": "module"}\n');
  cpSync(path.join(repoRoot, "lib", "core"), path.join(root, "lib", "core"), { recursive: true });
  for (const [name, text] of Object.entries(extra)) writeFileSync(path.join(root, "lib", "core", name), text);
  return root;
}

function typecheckCore(root: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [TSC, "-p", path.join(root, "lib", "core")], { encoding: "utf8", timeout: 120_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

test("lib/core as it is compiles without Node types", (t) => {
  const result = typecheckCore(coreCopy(t, {}));
  assert.equal(result.status, 0, result.output);
});

test("a core file importing node:os, or using process or Buffer, fails the core typecheck", (t) => {
  const cases: Record<string, string> = {
    "uses-node-os.ts": 'import { constants } from "node:os";\nexport const signals = constants.signals;\n',
    "uses-process.ts": "export const pid = process.pid;\n",
    "uses-buffer.ts": 'export const bytes = Buffer.from("x");\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    const result = typecheckCore(coreCopy(t, { [name]: text }));
    assert.notEqual(result.status, 0, `${name} should fail the core typecheck`);
    assert.match(result.output, new RegExp(`${name.replace(".", "\\.")}.*(node:os|process|Buffer)`), result.output);
  }
});
