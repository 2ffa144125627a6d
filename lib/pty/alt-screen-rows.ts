// The alternate screen has no scrollback: it holds exactly the screen's
// rows. xterm.js 6 sizes its line store to the rows when the buffer is made,
// but resizes the store only while it holds lines, and the alternate buffer
// is empty whenever it is not shown. So a terminal made at 24 rows, resized
// to 20 and then switched to the alternate screen keeps room for 24 lines:
// the program's first scroll at the bottom row keeps the top line as if it
// were scrollback, a later resize pulls that line back onto the screen (tmux
// adds a blank row instead) and moves the cursor, and some resizes after
// that leave fewer lines than rows, where a line feed makes xterm throw
// (TypeError: cannot set 'isWrapped' of undefined). Found by the emulator
// fuzz test; a user sees it as `pty resize` and then a pager or editor.
// corral gives the empty alternate buffer its room for exactly the new rows
// after every resize, as xterm does for a buffer that holds lines.
import type { Terminal } from "@xterm/headless";

/** The parts of xterm's private buffers this needs (xterm 6). */
interface PrivateCore {
  _bufferService?: { buffers?: { alt?: { lines?: { length: number; maxLength: number } } } };
}

/** Keeps the (empty) alternate buffer's room at the screen's rows across resizes. */
export function keepAltScreenToItsRows(term: Terminal): void {
  const core = (term as unknown as { _core?: PrivateCore })._core;
  if (core?._bufferService?.buffers?.alt?.lines === undefined) return; // another xterm: left as it is
  term.onResize(({ rows }) => {
    const lines = core._bufferService?.buffers?.alt?.lines;
    if (lines !== undefined && lines.length === 0 && lines.maxLength !== rows) lines.maxLength = rows;
  });
}
