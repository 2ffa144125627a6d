// ED 1 (CSI 1 J, and DECSED CSI ? 1 J) erases from the top of the screen to
// the cursor. When the cursor is in the last column, xterm.js 6 also marks
// the row below as no longer wrapped, but it looks that row up without the
// scrollback's offset: on the last row of a screen that has not scrolled
// there is no such row, and xterm throws (TypeError: cannot set
// 'isWrapped' of undefined) in the middle of the erase, with the rows above
// left standing. A program could end the agent this way: `printf
// '\033[24;79Hx\033[1J'` in an 80x24 session. Once the screen has scrolled
// it marks a scrollback row instead. corral does that erase itself in that
// one case, as xterm means it (the row below the cursor's, when there is
// one); every other ED goes to xterm.
import type { Terminal } from "@xterm/headless";

/** The parts of xterm's private InputHandler the erase uses (xterm 6). */
interface PrivateInputHandler {
  _restrictCursor(maxCol?: number): void;
  _eraseInBufferLine(y: number, start: number, end: number, clearWrap?: boolean, respectProtect?: boolean): void;
  _resetBufferLine(y: number, respectProtect?: boolean): void;
  _dirtyRowTracker?: { markDirty(y: number): void };
  _activeBuffer: { x: number; y: number; ybase: number; lines: { get(index: number): { isWrapped: boolean } | undefined } };
}

interface PrivateCore {
  _inputHandler?: Partial<PrivateInputHandler>;
  _bufferService?: { cols?: number };
}

/** Makes ED 1 with the cursor in the last column erase as xterm means to, without throwing. */
export function eraseAboveInLastColumn(term: Terminal): void {
  const core = (term as unknown as { _core?: PrivateCore })._core;
  const handler = core?._inputHandler;
  if (
    typeof handler?._restrictCursor !== "function" || typeof handler._eraseInBufferLine !== "function" ||
    typeof handler._resetBufferLine !== "function" || typeof handler._activeBuffer !== "object"
  ) {
    return; // another xterm: its own ED runs (parse-batcher.ts contains what it throws)
  }
  const inputHandler = handler as PrivateInputHandler;
  const erase = (respectProtect: boolean) => (params: (number | number[])[]) => {
    const cols = core?._bufferService?.cols;
    if (params[0] !== 1 || typeof cols !== "number") return false;
    inputHandler._restrictCursor(cols);
    const buffer = inputHandler._activeBuffer;
    if (buffer.x + 1 < cols) return false; // xterm's own erase is right
    let row = buffer.y;
    inputHandler._dirtyRowTracker?.markDirty(row);
    inputHandler._eraseInBufferLine(row, 0, buffer.x + 1, true, respectProtect);
    const below = buffer.lines.get(buffer.ybase + row + 1);
    if (below !== undefined) below.isWrapped = false;
    while (row--) inputHandler._resetBufferLine(row, respectProtect);
    inputHandler._dirtyRowTracker?.markDirty(0);
    return true;
  };
  term.parser.registerCsiHandler({ final: "J" }, erase(false));
  term.parser.registerCsiHandler({ prefix: "?", final: "J" }, erase(true));
}
