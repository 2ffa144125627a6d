// Narrowing a terminal rewraps its long lines into more rows. tmux reflows
// the whole grid, history and screen alike, and shows its last rows: the
// rows below the cursor (a shell's blank rows under its prompt) stay, the
// cursor keeps its row, and the lines the rewrap added above push the top
// ones into the history. xterm.js 6 does the same once something has
// scrolled into its scrollback, but before that it drops a row from the
// bottom for each row added and moves the cursor down instead: after `seq -s'
// ' 1 30` in an 80x24 bash, `pty resize` to 40 columns showed the prompt
// three rows lower than tmux, with the top lines still on screen. corral
// takes back, at the end of that resize, the rows xterm dropped: they go
// back at the bottom, and the screen and the cursor move down over them, as
// in tmux. Only xterm's narrowing rewrap is watched (its `_reflowSmaller`);
// the blank rows a lower terminal drops are dropped in tmux too.
import type { Terminal } from "@xterm/headless";

/** The parts of xterm's private buffers this needs (xterm 6). */
interface PrivateLine {
  resize(cols: number, fill: unknown): unknown;
}

interface PrivateLines {
  readonly length: number;
  pop(): PrivateLine | undefined;
  push(line: PrivateLine): void;
}

interface PrivateBuffer {
  lines: PrivateLines;
  ybase: number;
  ydisp: number;
  y: number;
  _reflowSmaller?: (cols: number, rows: number) => void;
  getNullCell(): unknown;
}

interface PrivateBufferSet {
  readonly normal?: PrivateBuffer;
  resize(cols: number, rows: number): void;
}

/**
 * Keeps the rows below the cursor when narrowing rewraps lines, as tmux does.
 * Uses nothing outside itself: `pty view`'s page gets its source text.
 */
export function keepRowsBelowCursorOnReflow(term: Terminal): void {
  // The rows xterm dropped go back at the bottom, last dropped first; the screen moves down over them.
  const putBack = (buffer: PrivateBuffer, dropped: readonly PrivateLine[], cols: number, rows: number) => {
    const fill = buffer.getNullCell();
    const before = buffer.lines.length;
    for (let i = dropped.length - 1; i >= 0; i--) {
      const line = dropped[i] as PrivateLine;
      line.resize(cols, fill); // dropped before xterm cut the other rows to the new width
      buffer.lines.push(line);
    }
    // A full scrollback gives up its oldest lines to make room.
    const trimmed = before + dropped.length - buffer.lines.length;
    const cursorLine = buffer.ybase + buffer.y - trimmed;
    buffer.ybase = Math.max(0, buffer.lines.length - rows);
    buffer.ydisp = buffer.ybase;
    buffer.y = Math.max(0, Math.min(rows - 1, cursorLine - buffer.ybase));
  };
  const buffers = (term as unknown as { _core?: { _bufferService?: { buffers?: PrivateBufferSet } } })._core?._bufferService?.buffers;
  if (typeof buffers?.resize !== "function" || typeof buffers.normal?._reflowSmaller !== "function") return; // another xterm
  const resize = buffers.resize.bind(buffers);
  buffers.resize = (cols: number, rows: number) => {
    const normal = buffers.normal;
    const reflowSmaller = normal?._reflowSmaller;
    if (normal === undefined || reflowSmaller === undefined) return resize(cols, rows);
    const dropped: PrivateLine[] = [];
    // For this resize only: the rewrap's pops are counted, and kept.
    normal._reflowSmaller = function (this: PrivateBuffer, newCols: number, newRows: number) {
      const lines = this.lines;
      const pop = lines.pop;
      lines.pop = () => {
        const line = pop.call(lines);
        if (line !== undefined) dropped.push(line);
        return line;
      };
      try {
        reflowSmaller.call(this, newCols, newRows);
      } finally {
        delete (lines as Partial<PrivateLines>).pop;
      }
    };
    try {
      resize(cols, rows);
    } finally {
      delete normal._reflowSmaller;
    }
    if (dropped.length > 0) putBack(normal, dropped, cols, rows);
  };
}
