// The first line a remote caller writes to `corral connect`: a NUL byte
// (no JSON line starts with one), a name, a newline. It asks that connect
// to relay the agent's frames as they are (cli/commands/connect/framed-relay.ts);
// an older connect, which knows only JSON lines, answers it with a JSON
// line, which tells the caller what it met.
export const FRAMED_PREAMBLE = "\0corral-frames\n";

/** The same, for a call that must not start the agent (agent status, jobs): none running is exit NO_AGENT_STATUS. */
export const FRAMED_PREAMBLE_NO_START = "\0corral-frames no-start\n";

/** How a framed connect that was told not to start the agent says that none runs. */
export const NO_AGENT_STATUS = 3;
