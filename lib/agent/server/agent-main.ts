// The agent process (`corral agent run`, started detached by auto-start):
// serves until stopped or idle, and on every way out (agent stop, SIGTERM,
// SIGINT, SIGHUP, an uncaught error) closes every session first, so nothing
// it started keeps running. Its stderr is the log file: one line an event,
// never an environment value.
import path from "node:path";
import process from "node:process";
import type { AgentContext, AgentDefaults } from "./agent-context.ts";
import { AgentServer } from "./server.ts";
import type { SessionFactory } from "./session-port.ts";
import type { CommandLineDoor } from "./command-line-door.ts";
import { checkSocketPath, ensureStateDir } from "../client/state-dir.ts";

export interface AgentRunOptions {
  readonly socket: string;
  readonly idleTimeoutMs: number;
  readonly defaults: AgentDefaults;
  readonly openSession: SessionFactory;
  /** Re-adopts what a previous agent left (lib/agent/adoption), before the socket accepts anyone. */
  readonly adopt?: (ctx: AgentContext) => Promise<unknown>;
  /** Command lines served for the native client (command-line-door.ts). */
  readonly commandLines?: CommandLineDoor;
}

/** Runs the agent in this process until it stops; returns the exit status. */
export async function runAgent(options: AgentRunOptions): Promise<number> {
  const log = (line: string) => {
    process.stderr.write(`${new Date().toISOString()} corral agent[${process.pid}]: ${line}\n`);
  };
  checkSocketPath(options.socket);
  ensureStateDir(path.dirname(options.socket));
  // The agent's own entry script: an upgrade or rebuild over it is noticed (install-watch.ts).
  const entryFile = process.argv[1] === undefined ? undefined : path.resolve(process.argv[1]);
  const server = await AgentServer.listen({ ...options, log, ...(entryFile !== undefined ? { entryFile } : {}) });
  let status = 0;
  const onSignal = (signal: NodeJS.Signals) => () => void server.stop(`got ${signal}`);
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
  const handlers = signals.map((signal) => [signal, onSignal(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const onFatal = (error: unknown) => {
    log(`uncaught error: ${(error as Error)?.stack ?? String(error)}`);
    status = 1;
    void server.stop("uncaught error");
  };
  process.on("uncaughtException", onFatal);
  process.on("unhandledRejection", onFatal);
  await server.stopped;
  for (const [signal, handler] of handlers) process.off(signal, handler);
  process.off("uncaughtException", onFatal);
  process.off("unhandledRejection", onFatal);
  return status;
}
