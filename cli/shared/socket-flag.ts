// The `--socket` flag every agent command takes. Apart from cli/shared/agent-reach.ts
// on purpose: command definitions load at every start-up, and must not pull
// in the client, the socket code or child_process with them.
import type { TypedFlagParameter } from "@stricli/core";
import type { CorralContext } from "./context.ts";

/** Parsed value of `--socket`. */
export interface SocketFlag {
  readonly socket?: string;
}

/** `--socket PATH`, shared by the pty, agent and connect commands. */
export const socketFlag: TypedFlagParameter<string | undefined, CorralContext> = {
  kind: "parsed",
  parse: (text: string) => text,
  optional: true,
  placeholder: "path",
  brief: "The agent's socket (default $CORRAL_SOCKET, else agent.sock in the state dir)",
};
