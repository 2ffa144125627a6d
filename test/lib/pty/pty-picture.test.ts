// `pty screen --svg` and `--html`: pictures of a real screen. The SVG is
// rendered by a real SVG renderer (rsvg-convert) and the PNG's pixels are
// read at known cells: each must have the colour the program asked for.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { privateAgent } from "../../support/agent-harness.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { readPng } from "../../support/png-pixels.ts";
import { SVG_CELL } from "../../../lib/pty/screen-svg.ts";

const agent = privateAgent("picture");
after(() => agent.stop());
const haveRsvg = spawnSync("rsvg-convert", ["--version"]).status === 0;

/** The pixel at the middle of a cell. */
function cellCentre(row: number, col: number): [number, number] {
  return [SVG_CELL.padding + (col + 0.5) * SVG_CELL.width, SVG_CELL.padding + (row + 0.5) * SVG_CELL.height];
}

async function colourfulSession(): Promise<string> {
  const id = (await agent.ok(["pty", "open", "--cols", "80", "--rows", "24", "--", "bash", "--norc", "--noprofile"])).trim();
  // Row 0 after `clear`: red bg at cols 0-3, 256-colour 33 at 5-8, truecolour at 10-13, inverse at 15-19, wide characters at 21-24.
  await agent.ok(["pty", "send", id, String.raw`clear; printf '\e]2;picture test\a\e[41m    \e[0m \e[48;5;33m    \e[0m \e[48;2;10;200;30m    \e[0m \e[7m inv \e[0m 中文 \e[1;4;33mbold\e[0m\n'`, "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--regex", "^ +inv +中文 bold$", "--timeout", "20s"]);
  return id;
}

test("--svg renders with the right colour at known cells", { skip: !haveRsvg && "rsvg-convert not installed (Debian: librsvg2-bin)" }, async () => {
  const id = await colourfulSession();
  const svg = path.join(agent.dir, "screen.svg");
  const png = path.join(agent.dir, "screen.png");
  await agent.ok(["pty", "screen", id, "--svg", svg]);
  execFileSync("rsvg-convert", [svg, "-o", png]);
  const picture = readPng(png);
  assert.equal(picture.width, Math.round(SVG_CELL.padding * 2 + 80 * SVG_CELL.width));
  const at = (row: number, col: number) => picture.pixel(...cellCentre(row, col));
  assert.equal(at(0, 1), "#cc0000", "palette 1 background (red)");
  assert.equal(at(0, 6), "#0087ff", "256-colour 33 background");
  assert.equal(at(0, 11), "#0ac81e", "truecolour background");
  assert.equal(at(0, 15), "#d3d7cf", "inverse: the default foreground as background");
  assert.equal(at(0, 4), "#1e1e1e", "default background between the blocks");
  assert.equal(at(20, 70), "#1e1e1e", "an empty cell");
  // The cursor (row 1 after the printf's newline, on the prompt) is drawn over its cell.
  const { screen } = JSON.parse(await agent.ok(["pty", "screen", id, "--json"])) as { screen: { cursor: { row: number; col: number } } };
  assert.notEqual(at(screen.cursor.row, screen.cursor.col), "#1e1e1e", "the cursor is visible");
  const text = readFileSync(svg, "utf8");
  assert.match(text, /picture test · 80x24/, "the caption has the title and size");
  // Wide characters take two cells: 中 at column 21, 文 at column 23.
  const x = (col: number) => String(Math.round((SVG_CELL.padding + col * SVG_CELL.width) * 100) / 100);
  assert.match(text, new RegExp(`<text [^>]*x="${x(21)} ${x(23)}"[^>]*>中文</text>`));
  assert.match(text, /font-weight="bold"[^>]*text-decoration="underline"[^>]*>bold</);
  assert.doesNotMatch(text, /href|url\(|@import|<script/i, "self-contained");
  await agent.ok(["pty", "close", id, "--force"]);
});

test("--html: a self-contained page with the colours, the cursor and the caption", async () => {
  const id = await colourfulSession();
  const html = await agent.ok(["pty", "screen", id, "--html", "-"]);
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<span style="background:#cc0000"> {4}<\/span>/);
  assert.match(html, /<span style="background:#0087ff"> {4}<\/span>/);
  assert.match(html, /<span style="color:#1e1e1e;background:#d3d7cf"> inv <\/span>/);
  assert.match(html, /<span class="wide">中<\/span><span class="wide">文<\/span>/);
  assert.match(html, /class="cursor"/);
  assert.match(html, /<figcaption>picture test · 80x24 · session \d+<\/figcaption>/);
  assert.doesNotMatch(html, /href|src=|url\(|@import|<script/i, "self-contained");
  await agent.ok(["pty", "close", id, "--force"]);
});

test("--json --styles: runs with colours; --styles alone is a usage error", async () => {
  const id = await colourfulSession();
  const { screen } = JSON.parse(await agent.ok(["pty", "screen", id, "--json", "--styles"])) as { screen: { styles: { from: number; to: number; text: string; bg: unknown; bold: boolean; inverse: boolean }[][] } };
  const row = screen.styles[0] ?? [];
  assert.deepEqual(row.find((run) => run.from === 0), { ...row.find((run) => run.from === 0), to: 4, text: "    ", bg: 1 });
  assert.equal(row.find((run) => run.from === 5)?.bg, 33);
  assert.equal(row.find((run) => run.from === 10)?.bg, "#0ac81e");
  assert.equal(row.find((run) => run.from === 15)?.inverse, true);
  assert.deepEqual(row.filter((run) => run.text.includes("中")).map((run) => [run.from, run.to]), [[21, 25]]);
  const plain = (JSON.parse(await agent.ok(["pty", "screen", id, "--json"])) as { screen: Record<string, unknown> }).screen;
  assert.equal(plain.styles, undefined, "no styles unless asked");
  const bad = await corralInProcess(["pty", "screen", id, "--styles"], { env: agent.env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--styles goes with --json/);
  await agent.ok(["pty", "close", id, "--force"]);
});
