// The flags of `corral agent ...`: the socket, and the flag shapes the
// implementation declares (types only, so the definition loads none of it).
export type { CorralContext } from "../../shared/context.ts";
export { agentFlags, socketFlag } from "../../shared/socket-flag.ts";
export { parseDurationFlag } from "../../shared/flag-parsers.ts";
export { HELP_DEFAULT } from "../../shared/flag-defaults.ts";
export type { AgentFlags, AgentRunFlags, AgentStopFlags } from "./impl.ts";
