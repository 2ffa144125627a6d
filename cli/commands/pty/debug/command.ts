// `corral pty record` and `corral pty view`: for people debugging a terminal
// program by hand. Definitions only; the implementations load lazily.
import { buildCommand, type TypedPositionalParameter } from "@stricli/core";
import { type CorralContext, MIN_RECORD_BYTES, parseIntFlag, parseSizeFlag, type RecordFlags, agentFlags, type ViewFlags } from "../flags.ts";

const text = (input: string): string => input;
const opt = { kind: "parsed", parse: text, optional: true } as const;
const sessionParameter: TypedPositionalParameter<string, CorralContext> = {
  brief: "Session id or name (see corral pty list)",
  parse: text,
  placeholder: "session",
};

export const ptyRecord = buildCommand<RecordFlags, [string, string | undefined], CorralContext>({
  loader: async () => (await import("./record.ts")).ptyRecordAction,
  parameters: {
    flags: {
      max: { ...opt, parse: parseSizeFlag("--max", MIN_RECORD_BYTES), placeholder: "size", brief: "Stop before FILE passes SIZE (e.g. 10M); a marker event says so" },
      input: { kind: "boolean", default: false, brief: "Record what is typed too (off by default: input may hold passwords)" },
      stop: { kind: "boolean", default: false, brief: "End the session's recording (give no FILE)" },
      json: { kind: "boolean", default: false, brief: "Print the recording's status as JSON" },
      ...agentFlags,
    },
    positional: {
      kind: "tuple",
      parameters: [sessionParameter, { brief: "The .cast file to write (created or truncated, mode 0600)", parse: text, placeholder: "file.cast", optional: true }],
    },
  },
  docs: {
    brief: "Record an open session as asciicast v2 from now on",
    fullDescription: [
      "Starts writing FILE (asciicast v2, for asciinema play/cat): a header with the session's",
      "current size, TERM and command, a first event that draws the screen as it is, then the",
      "program's output as it comes, and resizes. Replaces a recording already running. The",
      "recording ends when the session ends, or with --stop. pty screen --json shows its status.",
      "Exit status: 0; 1 unknown or exited session; 2 bad value or unwritable FILE.",
      "",
      "Examples:",
      "  corral pty record 1 debug.cast",
      "  corral pty record editor debug.cast --max 5M",
      "  corral pty record editor --stop && asciinema play debug.cast",
    ].join("\n"),
  },
});

export const ptyView = buildCommand<ViewFlags, [string], CorralContext>({
  loader: async () => (await import("./view.ts")).ptyViewAction,
  parameters: {
    flags: {
      port: { ...opt, parse: parseIntFlag("--port", 0, 65535), placeholder: "n", brief: "Port to listen on (default: a free one)" },
      listen: { ...opt, placeholder: "address", brief: "Address to listen on (default 127.0.0.1; any other shows the session to the network)" },
      ...agentFlags,
    },
    positional: { kind: "tuple", parameters: [sessionParameter] },
  },
  docs: {
    brief: "Watch a session live in a browser (read-only)",
    fullDescription: [
      "Serves a read-only live view of the session on 127.0.0.1 and prints its URL, which",
      "carries a random token: without it every request is refused. The page draws the",
      "terminal with xterm.js, served from corral's own files. Runs until the session ends or",
      "Ctrl-C. --listen 0.0.0.0 lets other machines in: anyone with the URL sees the screen.",
      "Exit status: 0 the session ended or Ctrl-C; 1 unknown or exited session; 2 bad value.",
      "",
      "Examples:",
      "  corral pty view 1",
      "  corral pty view editor --port 8080",
    ].join("\n"),
  },
});
