// A buffer row as text. xterm's translateToString drops the empty base of a
// cell that holds only a combining mark (a mark written after a cursor move
// into a never-written cell), so the mark seems to join the character before
// it and everything after shifts one column left; tmux, the reference, shows
// that cell as a space carrying the mark. Rows without a mark (nearly all)
// keep xterm's fast path.
import type { IBufferCell, IBufferLine } from "@xterm/headless";

const MARK = /\p{M}/u;
const STARTS_WITH_MARK = /^\p{M}/u;

/** The row's text, cells never written at its end left out (as translateToString(true)). */
export function lineText(line: IBufferLine | undefined, cell: IBufferCell): string {
  if (line === undefined) return "";
  const fast = line.translateToString(true);
  if (!MARK.test(fast)) return fast;
  let end = 0;
  for (let x = 0; x < line.length; x++) {
    if (line.getCell(x, cell) !== undefined && cell.getChars() !== "") end = x + 1;
  }
  let text = "";
  for (let x = 0; x < end; x++) {
    if (line.getCell(x, cell) === undefined) break;
    if (cell.getWidth() === 0) continue; // the second half of a wide character
    const chars = cell.getChars();
    text += chars === "" ? " " : STARTS_WITH_MARK.test(chars) ? ` ${chars}` : chars;
  }
  return text;
}
