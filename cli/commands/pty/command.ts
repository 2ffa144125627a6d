// `corral pty ...`: terminal sessions held by the agent. Definitions only;
// each implementation loads lazily (cli/pty-*.ts), and none of them loads
// the emulator or a PTY: those live in the agent process.
import { buildCommand, buildRouteMap, type TypedPositionalParameter } from "@stricli/core";
import type { CorralContext, SendFlags, ScreenFlags, WaitFlags, CloseFlags, ListFlags, ResizeFlags, SocketOnly } from "./flags.ts";
import { parseClampedDimensionFlag, parseDurationFlag, parseIntFlag, agentFlags } from "./flags.ts";
import { ptyRecord, ptyView } from "./debug/command.ts";
import { ptyExec } from "./exec/command.ts";
import { ptyOpen } from "./open/command.ts";
import { HELP_DEFAULT, MAX_SCROLLBACK } from "./flags.ts";

const text = (input: string): string => input;
const opt = { kind: "parsed", parse: text, optional: true } as const;
const sessionParameter: TypedPositionalParameter<string, CorralContext> = {
  brief: "Session id or name (see corral pty list)",
  parse: text,
  placeholder: "session",
};

export const ptySend = buildCommand<SendFlags, [string, string | undefined], CorralContext>({
  loader: async () => (await import("./send.ts")).ptySendAction,
  parameters: {
    flags: {
      key: { ...opt, variadic: true, placeholder: "name", brief: "A named key sent after TEXT (repeatable): Enter, C-c, Up, F1..." },
      stdin: { kind: "boolean", default: false, brief: "Send the bytes read from stdin, raw, after TEXT and keys" },
      waitText: { ...opt, variadic: true, placeholder: "str", brief: "Then wait until the output after the input shows this text (repeatable)" },
      waitRegex: { ...opt, variadic: true, placeholder: "re", brief: "Then wait until an RE2 regex matches the output after the input (repeatable)" },
      waitStable: { ...opt, parse: parseDurationFlag("--wait-stable"), placeholder: "dur", brief: "Then wait until the screen has not changed for this long" },
      waitReady: { kind: "boolean", default: false, brief: "Then wait until the program waits for input again" },
      timeout: { ...opt, parse: parseDurationFlag("--timeout"), placeholder: "dur", brief: `Give up the --wait-* after this long: exit 124 (default ${HELP_DEFAULT.waitTimeout})` },
      json: { kind: "boolean", default: false, brief: "Print {sent, at, wait} as JSON (at: the output position the input went in at)" },
      ...agentFlags,
    },
    positional: {
      kind: "tuple",
      parameters: [sessionParameter, { brief: "Text sent literally", parse: text, placeholder: "text", optional: true }],
    },
  },
  docs: {
    brief: "Type text and named keys into a session",
    fullDescription: [
      "Sends TEXT literally, then each --key in order (tmux names, case-insensitive:",
      "Enter Tab Escape BSpace Up Down Left Right Home End PageUp PageDown Delete Insert",
      "F1-F12 Space C-a..C-z M-x C-Left; also Ctrl-C, ^C, ctrl+c). Cursor keys follow the",
      "program's application-cursor mode. An unknown key exits 2 and sends nothing.",
      "--json prints {sent, at}: `at` is the output position when the input went in, for",
      "pty wait --after. --wait-text/--wait-regex/--wait-stable/--wait-ready wait in the same",
      "call for output after the input (exit statuses as pty wait).",
      "",
      "Examples:",
      "  corral pty send 1 'ls -l' --key Enter",
      "  corral pty send py 'print(6*7)' --key Enter --wait-regex '^42$'",
      "  corral pty send sh 'make' --key Enter --wait-ready --timeout 10m",
      "  corral pty send editor --key Escape --key : ; corral pty send editor 'wq' --key Enter",
      "  printf 'q' | corral pty send pager --stdin",
    ].join("\n"),
  },
});

export const ptyScreen = buildCommand<ScreenFlags, [string], CorralContext>({
  loader: async () => (await import("./screen.ts")).ptyScreenAction,
  parameters: {
    flags: {
      json: { kind: "boolean", default: false, brief: "Print cursor, size, title, hash, changed, alive and exit facts too" },
      since: { ...opt, placeholder: "hash", brief: "Report changed against this hash instead of the last read" },
      scrollback: { ...opt, parse: parseIntFlag("--scrollback", 0, MAX_SCROLLBACK), placeholder: "n", brief: `Include up to N lines above the screen (at most ${HELP_DEFAULT.maxScrollback})` },
      ansi: { kind: "boolean", default: false, brief: "Print the rows with colours and attributes as SGR escapes (tmux capture-pane -e)" },
      styles: { kind: "boolean", default: false, brief: "With --json: add styles, per row runs of {from, to, text, fg, bg, bold, ...}" },
      svg: { ...opt, placeholder: "file", brief: "Write a picture of the screen as SVG to FILE (- for stdout)" },
      html: { ...opt, placeholder: "file", brief: "Write a picture of the screen as a self-contained HTML page to FILE (- for stdout)" },
      ...agentFlags,
    },
    positional: { kind: "tuple", parameters: [sessionParameter] },
  },
  docs: {
    brief: "Print a session's screen as text",
    fullDescription: [
      "Prints the visible rows, one per line, trailing spaces trimmed, after every byte the",
      "program wrote so far has been parsed. --json prints {screen: {id, name, lines, cursor,",
      "size, alternateScreen, title, hash, changed (since this session's last screen read, or",
      "since --since), alive, exit, position, foreground}}; --styles adds colours and attributes.",
      "--ansi prints the rows with SGR escapes; --svg and --html write a picture (colours,",
      "attributes, cursor, a caption with title and size).",
      "",
      "Examples:",
      "  corral pty screen 1",
      "  corral pty screen 1 --ansi",
      "  corral pty screen editor --svg editor.svg",
      "  corral pty screen editor --json | jq -r .screen.hash",
      "  corral pty screen 1 --json --since 3f2a9c0d1e2b4a5f",
    ].join("\n"),
  },
});

export const ptyWait = buildCommand<WaitFlags, [string], CorralContext>({
  loader: async () => (await import("./wait.ts")).ptyWaitAction,
  parameters: {
    flags: {
      text: { ...opt, variadic: true, placeholder: "str", brief: "Until the output or the screen shows this text (repeatable)" },
      regex: { ...opt, variadic: true, placeholder: "re", brief: "Until this RE2 regular expression matches a line of output or the screen (repeatable)" },
      stable: { ...opt, parse: parseDurationFlag("--stable"), placeholder: "dur", brief: "Until the screen has not changed for this long (e.g. 500ms)" },
      ready: { kind: "boolean", default: false, brief: "Until the foreground program waits for input (Linux)" },
      exit: { kind: "boolean", default: false, brief: "Until the program exits" },
      commandDone: { kind: "boolean", default: false, brief: "Until the session's hooked shell finishes a command (at once when none runs, without --after/--new)" },
      after: { ...opt, parse: parseIntFlag("--after", 0, Number.MAX_SAFE_INTEGER), placeholder: "pos", brief: "Only output after this position counts (from pty send --json)" },
      new: { kind: "boolean", default: false, brief: "Only output after the wait began counts (--after the position then)" },
      timeout: { ...opt, parse: parseDurationFlag("--timeout"), placeholder: "dur", brief: `Give up after this long: exit 124 (default ${HELP_DEFAULT.waitTimeout})` },
      json: { kind: "boolean", default: false, brief: "Print {fired, match, position, windowExceeded, screen} as JSON" },
      ...agentFlags,
    },
    positional: { kind: "tuple", parameters: [sessionParameter] },
  },
  docs: {
    brief: "Wait for text, a pattern, a quiet screen or the exit",
    fullDescription: [
      "Waits until one of the conditions holds (the first one wins) and prints which fired:",
      "text, regex, stable, ready or exit. --text/--regex match each line of output written",
      "after --after POS (lines that scrolled away count; the last 10,000 lines / 1 MiB are",
      "kept) and the screen; without --after/--new, the screen as it is and output from now.",
      "--json names the pattern, the match, its groups and the position after it.",
      "Exit status: 0 a condition fired; 124 --timeout passed; 1 unknown session, or the program",
      "exited before the condition was met (add --exit to wait for that); 2 a bad flag.",
      "",
      "Examples:",
      "  at=$(corral pty send py 'print(6*7)' --key Enter --json | jq .at)",
      "  corral pty wait py --after \"$at\" --regex '^42$' --timeout 5s",
      "  corral pty wait 1 --new --text 'PASS' --text 'FAIL' --json | jq -r .match.pattern",
      "  corral pty wait sh --ready; corral pty wait top --stable 300ms; corral pty wait 1 --exit",
    ].join("\n"),
  },
});

export const ptyResize = buildCommand<ResizeFlags, [string, number | undefined, number | undefined], CorralContext>({
  loader: async () => (await import("./control.ts")).ptyResizeAction,
  parameters: {
    flags: {
      cols: { ...opt, parse: parseClampedDimensionFlag("--cols"), placeholder: "n", brief: "Columns (1-1000), as pty open takes them" },
      rows: { ...opt, parse: parseClampedDimensionFlag("--rows"), placeholder: "n", brief: "Rows (1-1000), as pty open takes them" },
      json: { kind: "boolean", default: false, brief: "Print {session: {id, ..., size: {cols, rows}}} as JSON" },
      ...agentFlags,
    },
    positional: {
      kind: "tuple",
      parameters: [
        sessionParameter,
        { brief: "Columns (1-1000)", parse: parseClampedDimensionFlag("COLS"), placeholder: "cols", optional: true },
        { brief: "Rows (1-1000)", parse: parseClampedDimensionFlag("ROWS"), placeholder: "rows", optional: true },
      ],
    },
  },
  docs: {
    brief: "Resize a session's terminal",
    fullDescription: [
      "Sets the terminal size (clamped to 1..1000), given as COLS ROWS or as --cols C --rows R;",
      "the program gets SIGWINCH and the next screen read reports a change. Growing brings",
      "back lines from the session's history, as tmux does.",
      "",
      "Examples:",
      "  corral pty resize 1 120 40",
      "  corral pty resize 1 --cols 120 --rows 40",
      "  corral pty resize web 100 30 --json | jq .session.size",
    ].join("\n"),
  },
});

export const ptyClose = buildCommand<CloseFlags, [string], CorralContext>({
  loader: async () => (await import("./control.ts")).ptyCloseAction,
  parameters: {
    flags: {
      grace: { ...opt, parse: parseDurationFlag("--grace"), placeholder: "dur", brief: `Time after SIGHUP before the tree is terminated (default ${HELP_DEFAULT.grace} or config grace)` },
      force: { kind: "boolean", default: false, brief: "Kill the whole tree at once" },
      json: { kind: "boolean", default: false, brief: "Print {session: {id, ..., exit}} as JSON" },
      ...agentFlags,
    },
    positional: { kind: "tuple", parameters: [sessionParameter] },
  },
  docs: {
    brief: "Close a session: SIGHUP, then terminate its tree",
    fullDescription: [
      "Sends SIGHUP (what a closing terminal sends), waits up to --grace, then terminates",
      "what is left of the tree (SIGTERM, SIGKILL). --force kills at once. Idempotent. The",
      "session stays in pty list with its exit facts.",
      "",
      "Examples:",
      "  corral pty close 1",
      "  corral pty close editor --grace 500ms",
      "  corral pty close 1 --force --json",
    ].join("\n"),
  },
});

export const ptyList = buildCommand<ListFlags, [], CorralContext>({
  loader: async () => (await import("./control.ts")).ptyListAction,
  parameters: {
    flags: {
      json: { kind: "boolean", default: false, brief: "Print {sessions: [...]} as JSON" },
      ...agentFlags,
    },
  },
  docs: {
    brief: "List sessions: id, name, pid, size, state, age, command",
    fullDescription: [
      "Lists running and exited sessions. Never starts the agent (none running: nothing",
      "listed) and never consumes a screen change. A retired session (exited, its name",
      "taken by a newer one) shows its name in brackets and is reachable by id only.",
      "",
      "Examples:",
      "  corral pty list",
      "  corral pty list --json | jq -r '.sessions[] | select(.alive) | .id'",
    ].join("\n"),
  },
});

export const ptyAttach = buildCommand<SocketOnly, [string], CorralContext>({
  loader: async () => (await import("./attach.ts")).ptyAttachAction,
  parameters: { flags: { ...agentFlags }, positional: { kind: "tuple", parameters: [sessionParameter] } },
  docs: {
    brief: "Take over a session in this terminal; detach with C-\\",
    fullDescription: [
      "Connects this terminal (stdin must be one, else exit 2) to the session (raw mode; it",
      "follows this window's size). Press C-\\ (Ctrl and backslash) to detach: the session",
      "keeps running. The terminal is restored on every way out. Ends when the program exits.",
      "Exit status: 0 detached or the program exited; 1 the agent went away (the session",
      "lives on under its guardian); 255 the --host connection was lost.",
      "",
      "Examples:",
      "  corral pty attach 1",
    ].join("\n"),
  },
});

export const ptyRoutes = buildRouteMap<string, CorralContext>({
  routes: {
    open: ptyOpen,
    send: ptySend,
    exec: ptyExec,
    screen: ptyScreen,
    wait: ptyWait,
    resize: ptyResize,
    close: ptyClose,
    list: ptyList,
    attach: ptyAttach,
    record: ptyRecord,
    view: ptyView,
  },
  docs: {
    brief: "Terminal sessions kept by the agent: open, type, read the screen, wait",
    fullDescription: [
      "Terminal sessions kept by the agent: a program on a terminal that outlives the command",
      "that opened it. Open one, type text and keys into it, wait for what it prints, read its",
      "screen as a person would see it, and close it (its whole process tree goes). Sessions",
      "are named by id or --name everywhere; corral pty COMMAND --help says more.",
      "",
      "Examples:",
      "  corral pty open --name py -- python3",
      "  corral pty send py 'print(6*7)' --key Enter --wait-regex '^42$'",
      "  corral pty screen py",
      "  corral pty close py",
    ].join("\n"),
  },
});
