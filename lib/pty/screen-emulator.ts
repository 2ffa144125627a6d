// One xterm terminal with what corral adds around it: the cursor-visibility
// and title trackers xterm does not expose, the terminal's replies routed to
// the program, and the batcher that feeds it. Loaded lazily (dynamic import)
// so `run`/`collect` never pay for the emulator.
import type { Terminal } from "@xterm/headless";
import { keepAltScreenToItsRows } from "./alt-screen-rows.ts";
import { useCLibraryWidths } from "./char-width.ts";
import { eraseAboveInLastColumn } from "./erase-above.ts";
import { GuardedWrite } from "./guarded-write.ts";
import { ParseBatcher } from "./parse-batcher.ts";
import { keepRowsBelowCursorOnReflow } from "./reflow-rows.ts";
import { RowReads } from "./row-reads.ts";
import { restoreSavedCursorRow } from "./saved-cursor.ts";
import { keepScrollRegionAcrossScreens } from "./scroll-margins.ts";
import { answerQueriesXtermDoesNot } from "./terminal-queries.ts";

/** The xterm Terminal constructor, as loaded. */
export type TerminalClass = typeof Terminal;
let terminalClass: Promise<TerminalClass> | undefined;

/** The xterm Terminal class, imported on first use. */
export function loadTerminal(): Promise<TerminalClass> {
  terminalClass ??= import("@xterm/headless").then((m) => {
    const mod = m as { Terminal?: TerminalClass; default?: { Terminal: TerminalClass } };
    return (mod.Terminal ?? mod.default?.Terminal) as TerminalClass;
  });
  return terminalClass;
}

/** What the emulator tells its screen. */
export interface EmulatorHooks {
  /** Bytes the terminal answers with (cursor position, device attributes). */
  readonly onReply: (bytes: string) => void;
  /** A batch of received bytes was parsed. */
  readonly onParsed: (bytes: number) => void;
  /** xterm threw while parsing output; the bytes count as parsed (guarded-write.ts). */
  readonly onFault?: (error: unknown) => void;
}

/** A live terminal, its batcher and the state xterm keeps private. */
export class Emulator {
  readonly term: Terminal;
  readonly batcher: ParseBatcher;
  /** Every write into the terminal goes through it: live output and a replay alike. */
  readonly writer: GuardedWrite;
  /** Its rows as last read (screen-grid.ts reads only the rows that changed since). */
  readonly rowReads = new RowReads();
  cursorVisible = true;
  title = "";

  constructor(ctor: TerminalClass, cols: number, rows: number, scrollback: number, hooks: EmulatorHooks) {
    const term = new ctor({
      cols: Math.max(2, cols),
      rows,
      scrollback,
      allowProposedApi: true,
      convertEol: false,
      logLevel: "off",
      // CSI 18 t (text area size in characters) is answered, as xterm and tmux do.
      windowOptions: { getWinSizeChars: true },
    });
    this.term = term;
    useCLibraryWidths(term);
    answerQueriesXtermDoesNot(term);
    restoreSavedCursorRow(term);
    eraseAboveInLastColumn(term);
    keepAltScreenToItsRows(term);
    keepScrollRegionAcrossScreens(term);
    keepRowsBelowCursorOnReflow(term);
    this.writer = new GuardedWrite(term, hooks.onFault);
    this.batcher = new ParseBatcher(term, scrollback, hooks.onParsed, undefined, this.writer);
    term.onData((data) => hooks.onReply(data));
    term.onBinary((data) => hooks.onReply(data));
    term.onTitleChange((title) => {
      this.title = title;
    });
    // xterm has no public "cursor hidden" flag: follow DECTCEM (CSI ? 25 h/l)
    // and full resets ourselves, then let xterm's own handler run (return false).
    const track = (visible: boolean) => (params: (number | number[])[]) => {
      if (params.includes(25)) this.cursorVisible = visible;
      return false;
    };
    term.parser.registerCsiHandler({ prefix: "?", final: "h" }, track(true));
    term.parser.registerCsiHandler({ prefix: "?", final: "l" }, track(false));
    const reset = () => {
      this.cursorVisible = true;
      return false;
    };
    term.parser.registerEscHandler({ final: "c" }, reset);
    term.parser.registerCsiHandler({ intermediates: "!", final: "p" }, reset);
  }

  dispose(): void {
    this.batcher.dispose();
    this.term.dispose();
  }
}
