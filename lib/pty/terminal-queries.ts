// Queries a program may wait to have answered, and the ones xterm.js leaves
// unanswered. xterm.js answers DA1/DA2 (CSI c, CSI > c), DSR 5/6 (CSI 5n,
// CSI 6n), DECXCPR (CSI ? 6 n), DECRQM (CSI ? Ps $ p, CSI Ps $ p) and, with
// windowOptions.getWinSizeChars, CSI 18 t; XTVERSION (CSI > q) is added here.
import type { Terminal } from "@xterm/headless";

/**
 * What XTVERSION reports, name(version) as xterm's "XTerm(370)"; lib cannot
 * read cli/shared/version.ts, so test/lib/pty/pty-queries.test.ts keeps it in step with package.json.
 */
export const XTVERSION_NAME = "corral(0.1.0)";

/** Registers the answers xterm.js does not give itself. */
export function answerQueriesXtermDoesNot(term: Terminal): void {
  // XTVERSION: CSI > 0 q (or no parameter) -> DCS > | name ST.
  term.parser.registerCsiHandler({ prefix: ">", final: "q" }, (params) => {
    if ((params[0] ?? 0) !== 0) return false;
    term.input(`\x1bP>|${XTVERSION_NAME}\x1b\\`, false);
    return true;
  });
}
