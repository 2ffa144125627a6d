// The mutants of terminal sessions: keys and TERM reaching the program,
// waits that never race (--after), and the screen's fidelity to tmux.
import { type Mutant, script } from "./mutant.ts";

export const terminalMutants: readonly Mutant[] = [
  {
    name: "keys-send-nothing",
    guarantee: "keys reach the program",
    bug: "sendKeys writes only the typed text, not the keys' bytes",
    mutations: [{ file: "lib/pty/session.ts", from: "    this.#handle.write(bytes);\n", to: "    this.#handle.write(typed);\n" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "named keys" },
  },
  {
    name: "keys-up-as-backtab",
    guarantee: "keys reach the program",
    bug: "Up is sent as ESC [ Z (back-tab) instead of ESC [ A",
    mutations: [{ file: "lib/pty/keys.ts", from: 'up: "A",', to: 'up: "Z",' }],
    tests: { files: ["test/lib/pty/pty-programs.test.ts"], namePattern: "python3 REPL" },
  },
  {
    name: "keys-ctrl-off-by-one",
    guarantee: "keys reach the program",
    bug: "a Ctrl-letter key sends the next letter's control byte (C-a arrives as C-b)",
    mutations: [{ file: "lib/pty/keys.ts", from: "return String.fromCharCode(code & 0x1f);", to: "return String.fromCharCode((code & 0x1f) + 1);" }],
    tests: { files: ["test/lib/pty/pty-programs.test.ts"], namePattern: "python3 REPL" },
  },
  {
    name: "keys-no-application-cursor",
    guarantee: "keys reach the program",
    bug: "cursor keys ignore the application-cursor mode the program set",
    mutations: [{ file: "lib/pty/session.ts", from: "      if (this.#screen.applicationCursor) encoded = application;", to: "      if (this.#screen.applicationCursor && false) encoded = application;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "named keys" },
  },
  {
    name: "term-forced-dumb",
    guarantee: "TERM is set (xterm-256color unless --term)",
    bug: "every session gets TERM=dumb",
    mutations: [{ file: "lib/pty/session-spec.ts", from: "env.TERM = spec.term ?? DEFAULT_TERM;", to: 'env.TERM = "dumb";' }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "TERM defaults" },
  },
  {
    name: "term-caller-env-wins",
    guarantee: "TERM is set (xterm-256color unless --term)",
    bug: "the caller's TERM wins over the default",
    mutations: [{ file: "lib/pty/session-spec.ts", from: "env.TERM = spec.term ?? DEFAULT_TERM;", to: "env.TERM = spec.term ?? env.TERM ?? DEFAULT_TERM;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "TERM defaults" },
  },
  {
    name: "wait-after-ignored",
    guarantee: "send-then-wait never races (--after)",
    bug: "a wait looks from the position when it began, not from --after",
    mutations: [{ file: "lib/pty/session-wait.ts", from: "const from = cond.after ?? stream.position;", to: "const from = stream.position;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts", "test/lib/pty/pty-wait-stream.test.ts"], namePattern: "after|wait:|burst" },
  },
  {
    name: "decrc-row-moves-with-scrollback",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "DECSC/DECRC is left to xterm.js, whose restored row moves up with each line scrolled away",
    mutations: [{ file: "lib/pty/screen-emulator.ts", from: "    restoreSavedCursorRow(term);\n", to: "" }],
    tests: { files: ["test/lib/pty/pty-saved-cursor-marks.test.ts"], namePattern: "scrolled away" },
  },
  {
    name: "alt-screen-keeps-first-height",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "the alternate screen keeps room for the height the session had before a resize (xterm.js's own resize)",
    mutations: [{ file: "lib/pty/screen-emulator.ts", from: "    keepAltScreenToItsRows(term);\n", to: "" }],
    tests: { files: ["test/lib/pty/emulator-faults.test.ts"], namePattern: "seeded random" },
  },
  {
    name: "scroll-region-per-screen",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "the scroll region is kept per screen (xterm.js's own), so a switch to or from the alternate screen drops it",
    mutations: [{ file: "lib/pty/screen-emulator.ts", from: "    keepScrollRegionAcrossScreens(term);\n", to: "" }],
    tests: script("screen-scroll-region-across-screens.sh"),
  },
  {
    name: "mark-loses-its-empty-cell",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "a combining mark in a never-written cell is shown without that cell's space",
    mutations: [{ file: "lib/pty/line-text.ts", from: "  if (!MARK.test(fast)) return fast;", to: "  return fast;" }],
    tests: { files: ["test/lib/pty/pty-saved-cursor-marks.test.ts"], namePattern: "combining" },
  },
];
