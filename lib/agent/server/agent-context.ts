// What every request handler may use: the session table, the way to make
// sessions, the defaults, and the agent's own facts. Handlers get this and
// a validated request, nothing else, so each one is testable alone.
import type { SessionFactory } from "./session-port.ts";
import type { SessionRegistry } from "./session-registry.ts";
import type { JobTable } from "../../jobs/job-table.ts";
import type { AgentBudgets } from "./agent-budgets.ts";
import type { GuardianMode } from "../../config/schema.ts";
import type { CommandLineDoor } from "./command-line-door.ts";
import type { DroppedStdio } from "./descriptor-drop.ts";

export interface AgentDefaults {
  readonly cols: number;
  readonly rows: number;
  readonly term: string;
  readonly scrollback: number;
  readonly waitTimeoutMs: number;
  readonly closeGraceMs: number;
  /** The config key `guardian` (the agent's $CORRAL_GUARDIAN wins): jobs and sessions decide their backend with it. Default "auto". */
  readonly guardian?: GuardianMode;
  /** Config `agent.orphan-wait`: how long the guardians of jobs wait for a new agent; absent: as long as their program lives. */
  readonly orphanWaitMs?: number;
}

export interface AgentContext {
  readonly registry: SessionRegistry;
  /** Jobs (run --bg, run --tty): kept apart from sessions (issue 5). */
  readonly jobs: JobTable;
  /** Where guardian sockets and their records go (the socket's directory). */
  readonly stateDir: string;
  readonly openSession: SessionFactory;
  readonly defaults: AgentDefaults;
  /** The global memory budgets (agent-budgets.ts). */
  readonly budgets: AgentBudgets;
  readonly startedAt: number;
  readonly socket: string;
  /**
   * Begins the agent's shutdown (after the current reply is written); with
   * `keep`, sessions and jobs keep running and their guardians wait for the next agent.
   */
  requestStop(keep?: boolean): void;
  /** Something happened that resets the idle clock. */
  touch(): void;
  /** One line to the agent's log; never an environment value or a full command line. */
  log(line: string): void;
  /** Command lines the agent runs for the native client; absent: it serves none. */
  readonly commandLines?: CommandLineDoor;
  /** True once the files the agent was started from were replaced (install-watch.ts). */
  filesReplaced(): boolean;
  /** The install the agent runs from (install-watch.ts); null when unknown (a test's in-process agent). */
  readonly installRoot: string | null;
  /** What a `connect` client dropped under `token` (descriptor-drop.ts); absent or null: nothing to take. */
  takeDropped?(token: string): DroppedStdio | null;
}

/** Terminal sizes are clamped, not refused (DESIGN.md 4.4). */
export function clampSize(n: number): number {
  return Math.min(1000, Math.max(1, Math.floor(n)));
}
