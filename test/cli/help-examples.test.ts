// Help is generated from the command definitions: every command in the
// registry answers `--help` with an `Examples:` block, every group answers
// `--help` with its subcommands and examples, and `--version` prints the package version. Help runs in-process
// (the application from the registry, as the CLI runs it); `--version`, which
// main.ts answers before loading the application, runs the real CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Command, CommandContext, RouteMap } from "@stricli/core";
import { corral, repoRoot } from "../support/corral-cli.ts";
import { corralInProcess } from "../support/corral-in-process.ts";
import { loadRoutes } from "../../cli/registry.ts";

const rootRoutes = await loadRoutes();

type Target = Command<CommandContext> | RouteMap<CommandContext>;

function walk(prefix: readonly string[], target: Target, out: { path: string[]; group: boolean }[]): void {
  const group = "getAllEntries" in target;
  if (prefix.length > 0) out.push({ path: [...prefix], group });
  if (!group) return;
  // Hidden commands (the agent daemon itself) are not for people; they need no help.
  for (const entry of target.getAllEntries().filter((e) => !e.hidden)) walk([...prefix, entry.name["convert-camel-to-kebab"]], entry.target, out);
}

const targets: { path: string[]; group: boolean }[] = [];
walk([], rootRoutes as unknown as Target, targets);

test("every command's --help has an Examples: block with a corral invocation", async () => {
  const missing: string[] = [];
  for (const next of targets.filter((t) => !t.group)) {
    const name = next.path.join(" ");
    const result = await corralInProcess([...next.path, "--help"]);
    const text = result.stdout.toString();
    if (result.code !== 0) missing.push(`${name} (--help exited ${String(result.code)}: ${result.stderr.trim()})`);
    else if (!/^Examples:\n(?:.*\n)*? +.*\bcorral \S/m.test(text)) missing.push(name);
  }
  assert.deepEqual(missing.sort(), [], `commands whose --help lacks an "Examples:" block: ${missing.join(", ")}`);
});

test("every command group answers --help with its subcommands and an Examples: block", async () => {
  for (const group of targets.filter((t) => t.group)) {
    const result = await corralInProcess([...group.path, "--help"]);
    assert.equal(result.code, 0, `${group.path.join(" ")} --help: ${result.stderr}`);
    assert.match(result.stdout.toString(), /^Examples:\n(?:.*\n)*? +.*\bcorral \S/m, `${group.path.join(" ")} --help has no Examples: block`);
    const children = targets.filter((t) => t.path.length === group.path.length + 1 &&
      t.path.slice(0, -1).join(" ") === group.path.join(" "));
    for (const child of children) assert.match(result.stdout.toString(), new RegExp(`\\b${child.path.at(-1) ?? ""}\\b`));
  }
});

test("corral --help shows examples too", async () => {
  const result = await corralInProcess(["--help"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout.toString(), /^Examples:\n(?:.*\n)*? +corral run /m);
});

test("corral --version prints the package version", async () => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  const result = await corral(["--version"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.toString().trim(), pkg.version);
});
