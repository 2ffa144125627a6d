// `--help` fits the reader's width: every command's help, at 80 columns
// (what a pipe gets) and at 50 ($COLUMNS), has no line longer than the width
// unless it is one word that cannot be broken, and holds exactly the words of
// the unwrapped help in the same order: lines are broken at spaces only,
// never inside a word. Runs in-process (test/support/corral-in-process.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Command, CommandContext, RouteMap } from "@stricli/core";
import { corralInProcess } from "../support/corral-in-process.ts";
import { loadRoutes } from "../../cli/registry.ts";
import { helpWidth, wrapHelp } from "../../cli/shared/help-wrap.ts";

type Target = Command<CommandContext> | RouteMap<CommandContext>;

function paths(prefix: readonly string[], target: Target, out: string[][]): string[][] {
  out.push([...prefix]);
  if ("getAllEntries" in target) {
    for (const entry of target.getAllEntries().filter((e) => !e.hidden)) paths([...prefix, entry.name["convert-camel-to-kebab"]], entry.target, out);
  }
  return out;
}

const all = paths([], (await loadRoutes()) as unknown as Target, []);

async function help(path: readonly string[], columns: string | undefined): Promise<string> {
  const result = await corralInProcess([...path, "--help"], { env: { COLUMNS: columns } });
  assert.equal(result.code, 0, `${path.join(" ")} --help: ${result.stderr}`);
  return result.stdout.toString();
}

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== "");

test("every --help fits 80 columns when not on a terminal, and 50 with COLUMNS=50, breaking only at spaces", async () => {
  const problems: string[] = [];
  for (const path of all) {
    const name = `corral ${path.join(" ")}`.trim();
    const unwrapped = await help(path, "10000");
    for (const [columns, width] of [[undefined, 80], ["50", 50]] as const) {
      const text = await help(path, columns);
      for (const line of text.split("\n")) {
        if (line.length > width && words(line).length > 1) problems.push(`${name} at ${width}: ${JSON.stringify(line)}`);
      }
      if (words(text).join(" ") !== words(unwrapped).join(" ")) problems.push(`${name} at ${width}: the words differ from the unwrapped help`);
    }
  }
  assert.deepEqual(problems, []);
});

test("the unwrapped help has lines longer than 80 columns (so the test above tests something)", async () => {
  const text = await help(["pty", "send"], "10000");
  assert.ok(text.split("\n").some((line) => line.length > 80));
});

test("wrapHelp: a usage line breaks between bracketed groups, a flag row hangs under its description, a long word stays whole", () => {
  const usage = "USAGE\n  corral x [--alpha value] [--beta value] [--gamma value] <thing>\n";
  assert.equal(wrapHelp(usage, 42), "USAGE\n  corral x [--alpha value] [--beta value]\n      [--gamma value] <thing>\n");
  const row = "FLAGS\n  [--key]  one two three four five six seven\n";
  assert.equal(wrapHelp(row, 30), "FLAGS\n  [--key]  one two three four\n           five six seven\n");
  const long = "USAGE\n\nsee averyveryverylongwordthatcannotbreak here\n";
  assert.equal(wrapHelp(long, 20), "USAGE\n\nsee\naveryveryverylongwordthatcannotbreak\nhere\n");
});

test("helpWidth: $COLUMNS, else the terminal's width, else 80", () => {
  assert.equal(helpWidth({}, { isTTY: true, columns: 132 }), 132);
  assert.equal(helpWidth({}, { isTTY: false }), 80);
  assert.equal(helpWidth({}, {}), 80);
  assert.equal(helpWidth({ COLUMNS: "60" }, { isTTY: true, columns: 132 }), 60);
  assert.equal(helpWidth({ COLUMNS: "wide" }, { isTTY: true, columns: 132 }), 132);
});
