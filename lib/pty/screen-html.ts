// A screen as a self-contained HTML page: a <pre> of styled spans, the
// cursor outlined, a caption with the title and size. No scripts, fonts or
// stylesheets from elsewhere; opens in any browser, pastes into a bug report.
import { DEFAULT_BG, DEFAULT_FG, paintOf } from "./screen-palette.ts";
import { caption, escapeXml, placeCells, type ScreenPicture } from "./screen-picture.ts";
import type { StyleRun } from "./screen-styles.ts";

function css(run: StyleRun): string {
  const paint = paintOf(run);
  const rules: string[] = [];
  if (paint.fg !== DEFAULT_FG) rules.push(`color:${paint.fg}`);
  if (!paint.bgIsDefault) rules.push(`background:${paint.bg}`);
  if (run.bold) rules.push("font-weight:bold");
  if (run.italic) rules.push("font-style:italic");
  if (run.dim) rules.push("opacity:.5");
  if (run.invisible) rules.push("visibility:hidden");
  const lines = [run.underline && "underline", run.strikethrough && "line-through", run.overline && "overline"].filter(Boolean);
  if (lines.length > 0) rules.push(`text-decoration:${lines.join(" ")}`);
  return rules.join(";");
}

function span(style: string, text: string, cls = ""): string {
  if (text === "") return "";
  const attrs = `${cls === "" ? "" : ` class="${cls}"`}${style === "" ? "" : ` style="${style}"`}`;
  return attrs === "" ? escapeXml(text) : `<span${attrs}>${escapeXml(text)}</span>`;
}

// Wide characters get a box two cells wide, so the grid holds in any font.
function cellsHtml(run: StyleRun, style: string, cursorCol: number | null): string {
  let out = "";
  let plain = "";
  for (const cell of placeCells(run)) {
    const isCursor = cursorCol !== null && cursorCol >= cell.col && cursorCol < cell.col + cell.width;
    if (!isCursor && cell.width === 1) {
      plain += cell.text;
      continue;
    }
    out += span(style, plain);
    plain = "";
    const cls = [isCursor ? "cursor" : "", cell.width === 2 ? "wide" : ""].filter(Boolean).join(" ");
    out += span(style, cell.text, cls);
  }
  return out + span(style, plain);
}

function rowHtml(runs: readonly StyleRun[], cursorCol: number | null): string {
  let out = "";
  let end = 0;
  for (const run of runs) {
    const onCursor = cursorCol !== null && cursorCol >= run.from && cursorCol < run.to;
    out += cellsHtml(run, css(run), onCursor ? cursorCol : null);
    end = run.to;
  }
  if (cursorCol !== null && cursorCol >= end) out += " ".repeat(cursorCol - end) + span("", " ", "cursor");
  return out;
}

/** The picture as an HTML document. */
export function screenHtml(picture: ScreenPicture): string {
  const label = escapeXml(caption(picture));
  const { cursor } = picture;
  const rows: string[] = [];
  for (let row = 0; row < picture.size.rows; row++) {
    rows.push(rowHtml(picture.styles?.[row] ?? [], cursor.visible && cursor.row === row ? cursor.col : null));
  }
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${label}</title>
<style>
body{background:#111;margin:16px;font-family:sans-serif}
figure{display:inline-block;margin:0}
pre{font:14px/17px 'DejaVu Sans Mono',Menlo,Consolas,'Liberation Mono',monospace;background:${DEFAULT_BG};color:${DEFAULT_FG};padding:8px;margin:0;width:${picture.size.cols}ch}
.wide{display:inline-block;width:2ch}
.cursor{outline:2px solid ${DEFAULT_FG};outline-offset:-1px}
figcaption{background:#3a3a3a;color:#eeeeec;font-size:12px;padding:4px 8px}
</style></head>
<body><figure><pre>${rows.join("\n")}</pre><figcaption>${label}</figcaption></figure></body></html>
`;
}
