// The scripts committed under completions/ must be exactly what the command
// registry generates now: change a command or flag, regenerate them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { corral, repoRoot } from "./support/corral-cli.ts";

const SCRIPTS = { bash: "corral.bash", zsh: "_corral", fish: "corral.fish" } as const;

for (const [shell, file] of Object.entries(SCRIPTS)) {
  test(`completions/${file} is what \`corral completions ${shell}\` generates`, async () => {
    const result = await corral(["completions", shell]);
    assert.equal(result.code, 0, result.stderr);
    const committed = readFileSync(path.join(repoRoot, "completions", file), "utf8");
    assert.ok(
      committed === result.stdout.toString(),
      `completions/${file} is stale: the commands or flags changed. Regenerate all three with\n` +
        "  npm run build:ts && node dist/corral.mjs completions --write completions\nand commit them.",
    );
  });
}
