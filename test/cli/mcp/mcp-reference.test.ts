// docs/mcp.md's tool reference is what the tool table says now: a tool, an
// argument or an output field added, renamed or described anew without
// regenerating the page fails here. Regenerate:
//   node --import tsx cli/commands/mcp/reference.ts --write
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pagePath, withReference } from "../../../cli/commands/mcp/reference.ts";
import { TOOLS } from "../../../cli/commands/mcp/tools/table.ts";

test("docs/mcp.md holds the tool reference generated from the schemas", () => {
  const page = readFileSync(pagePath, "utf8");
  assert.equal(page, withReference(page), "stale: node --import tsx cli/commands/mcp/reference.ts --write, and commit docs/mcp.md");
});

test("every tool, and every one of its arguments, is in the page", () => {
  const page = readFileSync(pagePath, "utf8");
  for (const tool of TOOLS) {
    assert.ok(page.includes(`### \`${tool.name}\``), tool.name);
    for (const field of Object.keys(tool.inputSchema.properties)) assert.ok(page.includes(`| \`${field}\``), `${tool.name}.${field}`);
  }
});
