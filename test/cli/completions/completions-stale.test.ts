// The scripts committed under completions/ must be exactly what the command
// registry generates now: change a command or flag, regenerate them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { corral, repoRoot } from "../../support/corral-cli.ts";

const SCRIPTS = { bash: "corral.bash", zsh: "_corral", fish: "corral.fish" } as const;

for (const [shell, file] of Object.entries(SCRIPTS)) {
  test(`completions/${file} is what \`corral completions ${shell}\` generates`, async () => {
    const result = await corral(["completions", shell]);
    assert.equal(result.code, 0, result.stderr);
    const committed = readFileSync(path.join(repoRoot, "completions", file), "utf8");
    const fresh = result.stdout.toString();
    const a = committed.split("\n");
    const b = fresh.split("\n");
    const at = a.findIndex((line, i) => line !== b[i]);
    assert.ok(
      committed === fresh,
      `completions/${file} is stale: the commands or flags changed (first difference at line ${at + 1}:\n` +
        `  committed: ${a[at] ?? "(end)"}\n  generated: ${b[at] ?? "(end)"})\nRegenerate all three with\n` +
        "  npm run build:ts && node dist/corral.mjs completions --write completions\nand commit them.",
    );
  });
}
