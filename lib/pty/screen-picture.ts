// What a picture of a screen is drawn from (`pty screen --svg/--html`): the
// styled rows and the facts for the caption. A screen reply with styles has
// this shape; lib/pty does not depend on the agent's protocol for it.
import { cellTexts } from "./screen-palette.ts";
import type { StyleRun } from "./screen-styles.ts";

export interface ScreenPicture {
  readonly styles?: readonly (readonly StyleRun[])[];
  readonly size: { readonly cols: number; readonly rows: number };
  readonly cursor: { readonly row: number; readonly col: number; readonly visible: boolean };
  readonly title: string;
  readonly session?: string;
  readonly name?: string | null;
}

/** One character and the cells it covers. */
export interface PlacedCell {
  readonly col: number;
  readonly width: number;
  readonly text: string;
}

/** The characters of a run with their columns (a run is all wide or all narrow). */
export function placeCells(run: StyleRun): PlacedCell[] {
  const texts = cellTexts(run.text);
  const width = texts.length > 0 && (run.to - run.from) === texts.length * 2 ? 2 : 1;
  return texts.map((text, i) => ({ col: run.from + i * width, width, text }));
}

/** "title · 80x24 · session 1 (name)": who and what the picture shows. */
export function caption(picture: ScreenPicture): string {
  const who = picture.session === undefined ? "" : ` · session ${picture.session}${picture.name ? ` (${picture.name})` : ""}`;
  const title = picture.title === "" ? "(no title)" : picture.title;
  return `${title} · ${picture.size.cols}x${picture.size.rows}${who}`;
}

/** Text safe inside XML and HTML elements and attributes. */
export function escapeXml(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters cannot appear in XML
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, "");
}
