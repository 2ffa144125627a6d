// No dangling references in the user's documentation: every relative link in
// README.md and docs/*.md points at a file or folder of the repository (and,
// with a #fragment into a Markdown page, at one of its headings), every
// repository path quoted as code (`cli/registry.ts`) exists, and no page
// speaks of the project's issue tracker ("issue 12") or of design notes that
// are not in the repository. README.md stays within 300 lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../support/corral-cli.ts";

const pages = ["README.md", ...readdirSync(path.join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The page's text with fenced code blocks blanked (their lines kept, for line numbers). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors === undefined) {
    anchors = new Set();
    const seen = new Map<string, number>();
    for (const line of prose(readFileSync(file, "utf8"))) {
      const heading = /^#{1,6} (.*)$/.exec(line);
      if (heading === null) continue;
      const base = slug(heading[1] as string);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    anchorCache.set(file, anchors);
  }
  return anchors;
}

interface Problem {
  readonly where: string;
  readonly what: string;
}

/** What is wrong in `page` (its text read from the repository unless given). */
function check(page: string, text: string = readFileSync(path.join(repoRoot, page), "utf8")): Problem[] {
  const file = path.join(repoRoot, page);
  const problems: Problem[] = [];
  for (const [index, raw] of prose(text).entries()) {
    const where = `${page}:${index + 1}`;
    const line = raw.replace(/\\`/g, "");
    // Links, outside inline code.
    const text = line.replace(/``.*?``|`[^`]*`/g, "");
    for (const match of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [rawPath, fragment] = target.split("#", 2) as [string, string | undefined];
      const resolved = rawPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
      if (!resolved.startsWith(repoRoot)) problems.push({ where, what: `${target} leaves the repository` });
      else if (!existsSync(resolved)) problems.push({ where, what: `${target}: no such file` });
      else if (fragment !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment)) {
        problems.push({ where, what: `${target}: no heading #${fragment} in ${path.relative(repoRoot, resolved)}` });
      }
    }
    // Repository paths quoted as code: `cli/registry.ts`, `test/scripts/`, `CHANGELOG.md`.
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const name = match[1] as string;
      const repoPath = /^(cli|lib|native|test|docs|schemas|completions|man|\.ci)\/[\w./-]*$/.test(name) || /^[A-Z]+\.md$/.test(name);
      if (repoPath && !/[*<>$]/.test(name) && !existsSync(path.join(repoRoot, name))) problems.push({ where, what: `\`${name}\`: no such file in the repository` });
    }
    if (/\bissues? #?\d+/i.test(raw)) problems.push({ where, what: `speaks of an issue number: ${raw.trim()}` });
    if (/\bDESIGN\.md\b/.test(raw)) problems.push({ where, what: "refers to DESIGN.md, which is not in the repository" });
  }
  return problems;
}

test("every relative link and repository path in README.md and docs/ exists, and no page says \"issue N\"", () => {
  const problems = pages.flatMap((page) => check(page)).map((p) => `${p.where}: ${p.what}`);
  assert.deepEqual(problems, []);
});

test("the checker finds what it should: a missing file, a missing heading, a missing path, an issue number", () => {
  assert.equal(slug("Reading a job's output and facts"), "reading-a-jobs-output-and-facts");
  assert.equal(slug("`corral connect`"), "corral-connect");
  const page = [
    "[fine](guarantees.md#exit-statuses) [web](https://example.com/x) `cli/registry.ts`",
    "[gone](nowhere.md) [no heading](guarantees.md#nowhere) `lib/nowhere.ts`",
    "As issue 12 said.",
    "```",
    "[in a code block](ignored.md) `lib/ignored.ts`",
    "```",
  ].join("\n");
  assert.deepEqual(check("docs/probe.md", page).map((p) => p.what), [
    "nowhere.md: no such file",
    "guarantees.md#nowhere: no heading #nowhere in docs/guarantees.md",
    "`lib/nowhere.ts`: no such file in the repository",
    "speaks of an issue number: As issue 12 said.",
  ]);
});

test("README.md is at most 300 lines", () => {
  const lines = readFileSync(path.join(repoRoot, "README.md"), "utf8").split("\n").length - 1;
  assert.ok(lines <= 300, `README.md has ${lines} lines`);
});
