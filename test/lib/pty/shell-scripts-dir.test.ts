// A process that opens hooked shells without a state dir (the library used
// directly, as tests do) writes the hook scripts to a directory of its own
// under the temporary directory; it must not outlive the process, or every
// test run leaves one behind on a machine that runs the suite again and again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";

test("the hook scripts' own directory of a process without a state dir goes with the process", () => {
  const program = `
    import { existsSync } from "node:fs";
    import { hookedRequest } from ${JSON.stringify(path.join(repoRoot, "lib", "pty", "shell-integration.ts"))};
    const request = hookedRequest({ argv: ["bash"], env: {}, cwd: "/", cols: 80, rows: 24 }, { kind: "bash", nonce: "0".repeat(32) }, undefined);
    const script = request.argv[request.argv.indexOf("--rcfile") + 1];
    console.log(JSON.stringify({ script, there: existsSync(script) }));
  `;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const { script, there } = JSON.parse(run.stdout) as { script: string; there: boolean };
  assert.equal(there, true, "the script was written while the process ran");
  const own = path.dirname(path.dirname(script));
  assert.match(path.basename(own), /^corral-shell-/);
  assert.equal(existsSync(own), false, `${own} is left behind`);
});
