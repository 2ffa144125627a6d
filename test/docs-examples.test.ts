// The docs' examples run as written, so they cannot drift from what corral
// does: every fenced block in README.md and docs/*.md whose info string is
// exactly `sh runnable` (a fence line of three backticks, then
// "sh runnable") is run as a user script (test/scripts/script-harness.ts):
// `bash -euo pipefail`, the built corral on PATH, a private state dir, a
// scratch working directory, and nothing it started may be left running.
// A block passes when it exits 0; what it prints is for the reader. Blocks
// without the marker (an interactive `run --tty`, output shown as text) are
// not run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "./support/corral-cli.ts";
import { runUserScript } from "./scripts/script-harness.ts";

/** One runnable block: where it is, and its text. */
export interface RunnableBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly text: string;
}

const OPEN = /^```sh runnable\s*$/;
const CLOSE = /^```\s*$/;

/** The runnable blocks of a Markdown text. An unclosed block is an error: it would run the rest of the page. */
export function runnableBlocks(file: string, markdown: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!OPEN.test(lines[i] as string)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !CLOSE.test(lines[i] as string); i++) body.push(lines[i] as string);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a sh runnable block is never closed`);
    blocks.push({ file, line: start + 1, text: `${body.join("\n")}\n` });
  }
  return blocks;
}

/** README.md and docs/*.md, relative to the repository. */
function pages(): string[] {
  const docs = path.join(repoRoot, "docs");
  const inDocs = existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`) : [];
  return ["README.md", ...inDocs];
}

const blocks = pages().flatMap((page) => runnableBlocks(page, readFileSync(path.join(repoRoot, page), "utf8")));

test("the runnable-block reader: the marker exactly, the block's lines, an unclosed block refused", () => {
  const md = ["# x", "```sh", "not run", "```", "```sh runnable", "echo one", "echo two", "```", "```sh runnable", "echo three"].join("\n");
  assert.throws(() => runnableBlocks("x.md", md), /x\.md:9: a sh runnable block is never closed/);
  const found = runnableBlocks("x.md", md.split("\n").slice(0, 8).join("\n"));
  assert.deepEqual(found, [{ file: "x.md", line: 5, text: "echo one\necho two\n" }]);
});

if (blocks.length === 0) {
  test("the docs' runnable examples", { skip: "no ```sh runnable block in README.md or docs/*.md" }, () => {});
}

for (const block of blocks) {
  const label = `${block.file}:${block.line}`;
  test(`docs example ${label} runs as written`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "corral-docs-example-"));
    const file = path.join(dir, "example.sh");
    writeFileSync(file, `# ${label}\n${block.text}`);
    try {
      await runUserScript(label, file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
