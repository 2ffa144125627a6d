// `corral connect`: one long connection to the agent, JSON lines in, one
// JSON reply line per request out, in order. Definition only; the loop is
// in cli/commands/connect/impl.ts.
import { buildCommand } from "@stricli/core";
import { type CorralContext, agentFlags, type SocketFlag } from "./flags.ts";

export const connectCommand = buildCommand<SocketFlag, [], CorralContext>({
  loader: async () => (await import("./impl.ts")).connectAction,
  parameters: { flags: { ...agentFlags } },
  docs: {
    brief: "Talk to the agent in JSON lines (one request a line, one reply a line)",
    fullDescription: [
      "Reads requests from stdin, one JSON object a line, and writes one reply line per",
      "request, in order, so a script or an AI agent pays corral's start-up once. Ops are",
      "named like the commands, fields like their flags (durations in ms):",
      '  {"op":"open","argv":["bash"],"name":"b","cols":80,"rows":24,"env":{"K":"V"}}',
      '  {"op":"send","session":"b","text":"ls","keys":["Enter"]}',
      '  {"op":"screen","session":"b"}   {"op":"list"}   {"op":"resize","session":"b","cols":100,"rows":30}',
      '  {"op":"wait","session":"b","text":"$ ","new":true,"timeoutMs":5000}',
      '  {"op":"close","session":"b","graceMs":1000}',
      'Replies: {"ok":true,...} (screen: as pty screen --json) or',
      '{"ok":false,"error":{"code":"unknown_session","message":"..."}}; a "ref" is echoed.',
      "open gets your environment, scrubbed, plus its env object.",
      "",
      "Examples:",
      `  printf '%s\\n' '{"op":"open","argv":["bash"],"name":"b"}' '{"op":"screen","session":"b","ref":1}' | corral connect`,
      "  coproc corral connect; echo '{\"op\":\"list\"}' >&\"${COPROC[1]}\"; read -r reply <&\"${COPROC[0]}\"",
    ].join("\n"),
  },
});
