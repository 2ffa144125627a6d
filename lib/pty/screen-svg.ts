// A screen as an SVG picture: a monospace grid with the cells' colours and
// attributes, the cursor, and a caption with the title and size. Self-
// contained: no fonts, scripts or images from elsewhere. Every character is
// placed at its cell's x, so the grid stays a grid whatever monospace font
// the viewer has (and wide characters take their two cells).
// Browsers collapse runs of spaces in SVG text before they place characters
// at the listed x positions unless the <text> itself says xml:space=
// "preserve" (Chromium does not inherit it from a <g>, librsvg does): every
// character after a double space slid one position along the list, columns
// slipped, the cursor sat on the wrong letter. So each <text> says it, and
// white-space:pre too; the spaces stay real spaces, so the picture's text
// can still be searched and copied.
import { DEFAULT_BG, DEFAULT_FG, paintOf } from "./screen-palette.ts";
import { caption, escapeXml, placeCells, type ScreenPicture } from "./screen-picture.ts";

/** Cell size and margins in SVG pixels: 14px DejaVu Sans Mono advances 8.4. */
export const SVG_CELL = { width: 8.4, height: 17, padding: 8, captionHeight: 24, fontSize: 14, baseline: 13 } as const;

const FONT = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

function px(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** The picture as an SVG document. */
export function screenSvg(picture: ScreenPicture): string {
  const { width: cw, height: ch, padding, captionHeight, fontSize, baseline } = SVG_CELL;
  const width = padding * 2 + picture.size.cols * cw;
  const gridHeight = padding * 2 + picture.size.rows * ch;
  const height = gridHeight + captionHeight;
  const backgrounds: string[] = [];
  const texts: string[] = [];
  (picture.styles ?? []).forEach((runs, row) => {
    const y = padding + row * ch;
    for (const run of runs) {
      const paint = paintOf(run);
      if (!paint.bgIsDefault) {
        backgrounds.push(`<rect x="${px(padding + run.from * cw)}" y="${px(y)}" width="${px((run.to - run.from) * cw)}" height="${ch}" fill="${paint.bg}"/>`);
      }
      // Spaces draw nothing unless a line goes through them (vim's cursorline underlines to the end).
      if (run.invisible || (run.text.trim() === "" && !run.underline && !run.strikethrough && !run.overline)) continue;
      const cells = placeCells(run);
      const xs: string[] = [];
      let text = "";
      for (const cell of cells) {
        // Every code point of a cluster (a letter and its accents) sits at its cell.
        for (const point of cell.text) {
          xs.push(px(padding + cell.col * cw));
          text += point;
        }
      }
      const attrs = [`xml:space="preserve"`, `style="white-space:pre"`, `x="${xs.join(" ")}"`, `y="${px(y + baseline)}"`, `fill="${paint.fg}"`];
      if (run.bold) attrs.push(`font-weight="bold"`);
      if (run.italic) attrs.push(`font-style="italic"`);
      if (run.dim) attrs.push(`opacity="0.5"`);
      const lines = [run.underline && "underline", run.strikethrough && "line-through", run.overline && "overline"].filter(Boolean);
      if (lines.length > 0) attrs.push(`text-decoration="${lines.join(" ")}"`);
      texts.push(`<text ${attrs.join(" ")}>${escapeXml(text)}</text>`);
    }
  });
  const { cursor } = picture;
  const cursorRect = cursor.visible
    ? `<rect class="cursor" x="${px(padding + cursor.col * cw)}" y="${px(padding + cursor.row * ch)}" width="${px(cw)}" height="${ch}" fill="${DEFAULT_FG}" fill-opacity="0.6"/>`
    : "";
  const label = escapeXml(caption(picture));
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(width)}" height="${px(height)}" viewBox="0 0 ${px(width)} ${px(height)}" font-family="${FONT}" font-size="${fontSize}">`,
    `<title>${label}</title>`,
    `<rect width="${px(width)}" height="${px(gridHeight)}" fill="${DEFAULT_BG}"/>`,
    `<g class="backgrounds">${backgrounds.join("")}</g>`,
    `<g class="text" xml:space="preserve">${texts.join("\n")}</g>`,
    cursorRect,
    `<rect y="${px(gridHeight)}" width="${px(width)}" height="${captionHeight}" fill="#3a3a3a"/>`,
    `<text x="${padding}" y="${px(gridHeight + 16)}" fill="#eeeeec" font-size="12">${label}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}
