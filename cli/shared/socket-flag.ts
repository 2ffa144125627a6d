// The flags every agent command takes: `--socket`, and `--host`/`--via`
// for an agent on another machine (lib/agent/client/remote/). Apart from
// cli/shared/agent-reach.ts on purpose: command definitions load at every
// start-up, and must not pull in the client, the socket code or
// child_process with them.
import type { TypedFlagParameter } from "@stricli/core";
import type { CorralContext } from "./context.ts";

/** Parsed values of `--socket`, `--host` and `--via`. */
export interface SocketFlag {
  readonly socket?: string;
  readonly host?: string;
  readonly via?: string;
}

/** `--socket PATH`, shared by the pty, agent and connect commands. */
export const socketFlag: TypedFlagParameter<string | undefined, CorralContext> = {
  kind: "parsed",
  parse: (text: string) => text,
  optional: true,
  placeholder: "path",
  brief: "The agent's socket (default $CORRAL_SOCKET, else agent.sock in the state dir)",
};

/** `--host [user@]machine[:path-to-corral]`: the agent of another machine, over OpenSSH. */
export const hostFlag: TypedFlagParameter<string | undefined, CorralContext> = {
  kind: "parsed",
  parse: (text: string) => text,
  optional: true,
  placeholder: "[user@]machine[:corral]",
  brief: "The agent of another machine, over ssh (default $CORRAL_HOST; a config hosts: name works too)",
};

/** `--via 'COMMAND ...'`: any command whose stdio reaches a remote `corral connect`. */
export const viaFlag: TypedFlagParameter<string | undefined, CorralContext> = {
  kind: "parsed",
  parse: (text: string) => text,
  optional: true,
  placeholder: "command",
  brief: "A command giving a stdio to a remote corral connect, e.g. 'kubectl exec -i pod -- corral connect'",
};

/** The three together, for a command's `flags`. */
export const agentFlags = { socket: socketFlag, host: hostFlag, via: viaFlag } as const;

/** Whether the command's agent is on another machine (flags or $CORRAL_HOST): its requests then carry no local paths or environment. */
export function wantsRemote(ctx: CorralContext, flags: SocketFlag): boolean {
  return flags.host !== undefined || flags.via !== undefined || (ctx.process.env.CORRAL_HOST ?? "") !== "";
}
