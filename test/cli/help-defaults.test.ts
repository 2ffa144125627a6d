// The defaults that help states come from lib/core/defaults.ts: each flag's
// --help line, the generated reference (docs/commands.md) and the MCP tool
// reference (docs/mcp.md) must carry the value formatted from lib/core, so a
// changed default changes every text that names it (and a literal left
// behind fails here).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";
import { corralInProcess } from "../support/corral-in-process.ts";
import {
  DEFAULT_COLS,
  DEFAULT_GRACE_MS,
  DEFAULT_HEAD_BYTES,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_INTERRUPT_GRACE_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  DEFAULT_WAIT_TIMEOUT_MS,
  MAX_SCROLLBACK,
} from "../../lib/core/defaults.ts";
import { formatDuration } from "../../lib/core/duration.ts";
import { formatSize } from "../../lib/core/size.ts";

const wait = formatDuration(DEFAULT_WAIT_TIMEOUT_MS);
const grace = formatDuration(DEFAULT_GRACE_MS);

/** A command, and texts its --help must hold, each naming a default from lib/core. */
const cases: { argv: string[]; says: string[] }[] = [
  { argv: ["pty", "wait"], says: [`Give up after this long: exit 124 (default ${wait})`] },
  { argv: ["pty", "send"], says: [`Give up the --wait-* after this long: exit 124 (default ${wait})`] },
  { argv: ["pty", "open"], says: [
    `Columns (1-1000; default ${DEFAULT_COLS} or terminal.cols)`,
    `Rows (1-1000; default ${DEFAULT_ROWS} or terminal.rows)`,
    `Lines kept above the screen (default ${DEFAULT_SCROLLBACK}, at most ${MAX_SCROLLBACK})`,
    `the session stays open (default ${wait})`,
  ] },
  { argv: ["pty", "exec"], says: [
    `the command left running (default ${wait})`,
    `time after Ctrl-C (default ${formatDuration(DEFAULT_INTERRUPT_GRACE_MS)})`,
    `Bytes of the output's tail to keep (default ${formatSize(DEFAULT_MAX_BYTES)})`,
    `Bytes of the output's head to keep (default ${formatSize(DEFAULT_HEAD_BYTES)})`,
  ] },
  { argv: ["pty", "close"], says: [`before the tree is terminated (default ${grace} or config grace)`] },
  { argv: ["pty", "screen"], says: [`Include up to N lines above the screen (at most ${MAX_SCROLLBACK})`] },
  { argv: ["run"], says: [`and for output EOF after exit (default ${grace})`, `bytes of tail kept in memory (default ${formatSize(DEFAULT_MAX_BYTES)})`] },
  { argv: ["collect"], says: [
    `Bytes of each stream's tail to keep (default ${formatSize(DEFAULT_MAX_BYTES)};`,
    `Bytes of each stream's head to keep (default ${formatSize(DEFAULT_HEAD_BYTES)})`,
  ] },
  { argv: ["reap"], says: [`Time between SIGTERM and SIGKILL with --all (default ${grace})`] },
  { argv: ["agent", "start"], says: [`agent.idle-timeout (default ${formatDuration(DEFAULT_IDLE_TIMEOUT_MS)};`] },
];

/** Help wraps long lines; the check reads words, not layout. */
const flat = (text: string): string => text.replace(/\s+/g, " ");

test("--help states each default as lib/core defines it", async () => {
  const missing: string[] = [];
  for (const { argv, says } of cases) {
    const result = await corralInProcess([...argv, "--help"]);
    assert.equal(result.code, 0, `${argv.join(" ")} --help: ${result.stderr}`);
    const text = flat(result.stdout.toString());
    for (const phrase of says) if (!text.includes(phrase)) missing.push(`corral ${argv.join(" ")} --help lacks "${phrase}"`);
  }
  assert.deepEqual(missing, []);
});

test("the generated references say the same defaults (regenerate with npm run reference and mcp/reference.ts --write)", () => {
  const commands = flat(readFileSync(path.join(repoRoot, "docs", "commands.md"), "utf8")).replaceAll("\\*", "*");
  const missing = cases.flatMap(({ says }) => says).filter((phrase) => !commands.includes(phrase));
  assert.deepEqual(missing, [], "docs/commands.md is stale");
  const mcp = flat(readFileSync(path.join(repoRoot, "docs", "mcp.md"), "utf8"));
  for (const phrase of [`Columns (default ${DEFAULT_COLS})`, `Rows (default ${DEFAULT_ROWS})`, `Between SIGTERM and SIGKILL (default ${DEFAULT_GRACE_MS})`, `after the Ctrl-C (default ${DEFAULT_INTERRUPT_GRACE_MS})`]) {
    assert.ok(mcp.includes(phrase), `docs/mcp.md lacks "${phrase}"`);
  }
});
