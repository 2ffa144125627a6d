// `pty screen --svg` as a browser draws it. librsvg honours xml:space on a
// <g>, Chromium does not: runs of spaces collapsed there and every character
// after them slid along the x list (`set   -eu` read `set -eu`, the cursor
// sat on the wrong letter), while the librsvg test passed. So the SVG is
// rendered in headless Chromium, each character's position read back as a
// cell, and the grid compared with `pty screen`'s text and with the HTML
// picture of the same screen rendered by the same browser.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { privateAgent } from "../../support/agent-harness.ts";
import { SVG_CELL } from "../../../lib/pty/screen-svg.ts";

const agent = privateAgent("picture-chromium");
after(() => agent.stop());
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => spawnSync(p, ["--version"]).status === 0) ?? "";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Characters as the browser placed them: row, column, character (spaces left out). */
interface Placed {
  readonly cells: readonly (readonly [number, number, string])[];
  readonly cursor: readonly [number, number] | null;
}

/** Runs in the SVG document: every character's start position as a cell. */
const SVG_CELLS = `(() => {
  const { padding, width, height, baseline } = ${JSON.stringify(SVG_CELL)};
  const cells = [];
  for (const text of document.querySelectorAll("g.text text")) {
    const content = text.textContent;
    for (let i = 0; i < text.getNumberOfChars(); i++) {
      const ch = content[i];
      if (ch === " " || ch === "\\u00a0") continue;
      const at = text.getStartPositionOfChar(i);
      cells.push([Math.round((at.y - padding - baseline) / height), Math.round((at.x - padding) / width), ch]);
    }
  }
  const c = document.querySelector("rect.cursor");
  const cursor = c === null ? null : [Math.round((+c.getAttribute("y") - padding) / height), Math.round((+c.getAttribute("x") - padding) / width)];
  return { cells, cursor };
})()`;

/** Runs in the HTML page: every character's box as a cell of the <pre>. */
const HTML_CELLS = `(() => {
  const pre = document.querySelector("pre");
  const style = getComputedStyle(pre);
  const box = pre.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft);
  const top = box.top + parseFloat(style.paddingTop);
  const probe = document.createElement("span");
  probe.textContent = "M".repeat(100);
  pre.appendChild(probe);
  const width = probe.getBoundingClientRect().width / 100;
  probe.remove();
  const lineHeight = parseFloat(style.lineHeight);
  const cells = [];
  const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i++) {
      const ch = node.data[i];
      if (ch === " " || ch === "\\n") continue;
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      cells.push([Math.round((r.top - top) / lineHeight), Math.round((r.left - left) / width), ch]);
    }
  }
  const c = pre.querySelector(".cursor");
  const cr = c === null ? null : c.getBoundingClientRect();
  const cursor = cr === null ? null : [Math.round((cr.top - top) / lineHeight), Math.round((cr.left - left) / width)];
  return { cells, cursor };
})()`;

/** The screen's text as cells, as `pty screen` prints it. */
function cellsOfText(lines: readonly string[]): [number, number, string][] {
  const cells: [number, number, string][] = [];
  lines.forEach((line, row) => {
    [...line].forEach((ch, col) => {
      if (ch !== " ") cells.push([row, col, ch]);
    });
  });
  return cells;
}

const sorted = (cells: readonly (readonly [number, number, string])[]) =>
  [...cells].map((c) => c.join(":")).sort();

/** Both pictures of session `id`'s screen drawn by Chromium, and its text. */
async function drawn(page: Page, id: string, name: string): Promise<{ svg: Placed; html: Placed; text: string[] }> {
  const svg = path.join(agent.dir, `${name}.svg`);
  const html = path.join(agent.dir, `${name}.html`);
  await agent.ok(["pty", "screen", id, "--svg", svg, "--html", html]);
  const text = (await agent.ok(["pty", "screen", id])).split("\n");
  await page.goto(pathToFileURL(svg).href, { timeout: 120_000 });
  const fromSvg = await page.evaluate<Placed>(SVG_CELLS);
  await page.goto(pathToFileURL(html).href, { timeout: 120_000 });
  return { svg: fromSvg, html: await page.evaluate<Placed>(HTML_CELLS), text };
}

/** The same cells in the SVG, the HTML and the text; the same cursor in both pictures. */
function assertSameGrid(name: string, got: { svg: Placed; html: Placed; text: string[] }): void {
  const expected = sorted(cellsOfText(got.text));
  assert.deepEqual(sorted(got.svg.cells), expected, `${name}: the SVG, drawn by Chromium, has each character in its cell`);
  assert.deepEqual(sorted(got.html.cells), expected, `${name}: the HTML picture, drawn by Chromium, too`);
  assert.deepEqual(got.svg.cursor, got.html.cursor, `${name}: the cursor in the same cell in both`);
}

const haveVim = spawnSync("vim", ["--version"]).status === 0;

test("the SVG picture in Chromium: every character in its cell, as in the HTML picture and the screen's text", {
  skip: chromiumPath === "" && "chromium not installed (Debian: chromium)",
  timeout: 240_000,
}, async (t) => {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS, timeout: 120_000 });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const id = (await agent.ok(["pty", "open", "--cols", "40", "--rows", "6", "--", "sh", "-c",
    String.raw`printf 'set   -eu\n  10   two  gaps\n\e[4mu  nder\e[0m x\n  end'; read x`])).trim();
  await agent.ok(["pty", "wait", id, "--text", "  end", "--timeout", "60s"]);
  const gaps = await drawn(page, id, "gaps");
  assertSameGrid("spaces", gaps);
  assert.deepEqual(gaps.svg.cursor, [3, 5], "the cursor after '  end'");
  await agent.ok(["pty", "close", id, "--force"]);
  if (!haveVim) {
    t.diagnostic("vim not installed (Debian: vim): its screen was not drawn");
    return;
  }
  // vim's right-aligned line numbers and a script's runs of spaces, in colour.
  const file = path.join(agent.dir, "deploy.sh");
  writeFileSync(file, "#!/bin/sh\nset   -eu\nhosts=\"alpha  beta\"\n    echo   \"$hosts\"\n");
  const vim = (await agent.ok(["pty", "open", "--cols", "50", "--rows", "8", "--env", "HOME=" + agent.dir, "--",
    "vim", "-u", "NONE", "-i", "NONE", "-N", "-c", "set number", "-c", "syntax on", file])).trim();
  await agent.ok(["pty", "wait", vim, "--regex", "^ +4 +    echo", "--timeout", "60s"]);
  await agent.ok(["pty", "wait", vim, "--stable", "300ms", "--timeout", "60s"]);
  assertSameGrid("vim", await drawn(page, vim, "vim"));
  await agent.ok(["pty", "close", vim, "--force"]);
});
