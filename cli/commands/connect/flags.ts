// The flags of `corral connect`: only the agent's socket.
export type { CorralContext } from "../../shared/context.ts";
export { agentFlags, socketFlag, type SocketFlag } from "../../shared/socket-flag.ts";
