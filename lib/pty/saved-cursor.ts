// DECSC / DECRC (ESC 7 / ESC 8, and CSI s / CSI u) save and restore the
// cursor's place on the screen. xterm.js saves it as a line of the whole
// buffer (ybase + y), so each line scrolled into the scrollback between save
// and restore moves the restored cursor up one row; with no scrollback ybase
// stays 0 and it is right. xterm and tmux restore the screen row: so does
// corral, by keeping the row itself and pointing xterm's saved line at it
// just before xterm's own restore runs (which still restores column,
// attributes and charset).
import type { Terminal } from "@xterm/headless";

/** The part of xterm's private buffer this needs (xterm 6: Buffer.savedY, ybase). */
interface PrivateBuffer {
  savedY: number;
  ybase: number;
}

interface PrivateCore {
  _bufferService?: { buffer?: PrivateBuffer };
}

/** Makes DECRC restore the screen row DECSC saved, as xterm and tmux do. */
export function restoreSavedCursorRow(term: Terminal): void {
  const activeBuffer = () => (term as unknown as { _core?: PrivateCore })._core?._bufferService?.buffer;
  // Per buffer, as xterm keeps one saved cursor per buffer (normal, alternate).
  const savedRows = new Map<PrivateBuffer, number>();
  const save = () => {
    const buffer = activeBuffer();
    if (buffer !== undefined) savedRows.set(buffer, term.buffer.active.cursorY);
    return false; // xterm's own save runs too
  };
  const restore = () => {
    const buffer = activeBuffer();
    const row = buffer === undefined ? undefined : savedRows.get(buffer);
    if (buffer !== undefined && row !== undefined && typeof buffer.savedY === "number" && typeof buffer.ybase === "number") {
      buffer.savedY = buffer.ybase + row;
    }
    return false; // xterm's own restore runs next
  };
  term.parser.registerEscHandler({ final: "7" }, save);
  term.parser.registerCsiHandler({ final: "s" }, save);
  term.parser.registerEscHandler({ final: "8" }, restore);
  term.parser.registerCsiHandler({ final: "u" }, restore);
}
