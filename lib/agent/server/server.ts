// The agent daemon: binds the socket (after probing a leftover one), serves
// connections, exits by itself once no session runs and nobody has asked
// anything for the idle time, and on every way out closes every session so
// that nothing it started is left running. A socket that disappears is
// recreated, or what the agent holds is ended after a bound (socket-watch.ts).
import net from "node:net";
import path from "node:path";
import { writeFileSync, rmSync, readFileSync } from "node:fs";
import process from "node:process";
import type { AgentContext, AgentDefaults } from "./agent-context.ts";
import type { CommandLineDoor } from "./command-line-door.ts";
import { agentPaths } from "../client/agent-paths.ts";
import { InstallWatch } from "./install-watch.ts";
import { DescriptorDrop } from "./descriptor-drop.ts";
import { packageRoot } from "../../supervise/guardian-setup.ts";
import { AgentConnection } from "./connection.ts";
import { fdExhaustionMessage, noteFdLimit } from "./fd-exhaustion.ts";
import { DEFAULT_BUDGETS, PendingFrameLedger, type AgentBudgets } from "./agent-budgets.ts";
import { makeScreenRoom } from "./screen-pressure.ts";
import { MemoryReturn } from "./memory-return.ts";
import { SessionRegistry } from "./session-registry.ts";
import type { SessionFactory } from "./session-port.ts";
import { clearStaleSocket } from "../client/socket-probe.ts";
import { holdStart } from "./start-hold.ts";
import { ensureStateDir, restrictToOwner } from "../client/state-dir.ts";
import { SOCKET_CHECK_MS, SocketWatch } from "./socket-watch.ts";
import { JobTable } from "../../jobs/job-table.ts";
import { stopAllJobs } from "../../jobs/stop-all.ts";
import { removeAllDoneJobs } from "../../jobs/done-jobs.ts";
import { removeAllSessionEnds } from "./session-ends.ts";

/** Longest a stopping agent waits for one session's close (grace included). */
const STOP_SESSION_DEADLINE_MS = 10_000;

export interface AgentServerOptions {
  readonly socket: string;
  readonly idleTimeoutMs: number;
  readonly openSession: SessionFactory;
  readonly defaults: AgentDefaults;
  readonly log?: (line: string) => void;
  /**
   * Re-adopts what a previous agent left running (issue 11): runs after the
   * old socket was probed dead and before the new one accepts anyone, so the
   * first request already sees every re-adopted session and job.
   */
  readonly adopt?: (ctx: AgentContext) => Promise<unknown>;
  /** Overrides of the global memory budgets (tests use small ones). */
  readonly budgets?: Partial<AgentBudgets>;
  /** Command lines served for the native client (command-line-door.ts). */
  readonly commandLines?: CommandLineDoor;
  /** The agent's entry script, watched for an upgrade or rebuild (install-watch.ts); absent: never replaced. */
  readonly entryFile?: string;
}

/** A running agent; `stopped` settles once every session is closed. */
export class AgentServer {
  readonly registry = new SessionRegistry();
  readonly jobs = new JobTable();
  readonly startedAt = Date.now();
  readonly stopped: Promise<void>;
  #server: net.Server;
  #connections = new Set<AgentConnection>();
  #lastActivity = Date.now();
  #idleTimer: ReturnType<typeof setInterval> | undefined;
  #socketTimer: ReturnType<typeof setInterval> | undefined;
  #stopping = false;
  #resolveStopped!: () => void;
  readonly #log: (line: string) => void;
  readonly #ctx: AgentContext;
  #overBudgetSaid = false;

  private constructor(readonly options: AgentServerOptions) {
    this.#log = options.log ?? (() => {});
    this.stopped = new Promise((resolve) => (this.#resolveStopped = resolve));
    noteFdLimit();
    const budgets: AgentBudgets = { ...DEFAULT_BUDGETS, ...options.budgets };
    // Frame buffers let go are handed back to the system, not kept by an idle heap (memory-return.ts).
    const memory = new MemoryReturn();
    const frames = new PendingFrameLedger(budgets.pendingFrameBytes, (bytes, total) => memory.released(bytes, total));
    const install = new InstallWatch(options.entryFile);
    const ctx: AgentContext = {
      registry: this.registry,
      jobs: this.jobs,
      stateDir: path.dirname(options.socket),
      openSession: options.openSession,
      defaults: options.defaults,
      budgets,
      startedAt: this.startedAt,
      socket: options.socket,
      requestStop: (keep = false) => setImmediate(() => void this.stop(keep ? "asked to stop, keeping what runs for the next agent" : "asked to stop", keep)),
      touch: () => (this.#lastActivity = Date.now()),
      log: (line) => this.#log(line),
      ...(options.commandLines !== undefined ? { commandLines: options.commandLines } : {}),
      filesReplaced: () => install.replaced(),
      installRoot: install.root,
      takeDropped: (token) => this.#drop?.take(token) ?? null,
    };
    this.#addonRoot = install.root ?? packageRoot();
    this.#ctx = ctx;
    this.#frames = frames;
    this.jobs.keepEndsIn(ctx.stateDir);
    this.registry.keepEndsIn(ctx.stateDir);
    this.#server = this.#createServer();
  }

  readonly #frames: PendingFrameLedger;
  /** Where `connect` clients leave their stdin and stdout (adopted-stdio.ts); null: they relay. */
  #drop: DescriptorDrop | null = null;
  readonly #addonRoot: string | null;

  #createServer(): net.Server {
    return net.createServer((socket) => {
      const connection = new AgentConnection(socket, this.#ctx, this.#log, this.#frames);
      this.#connections.add(connection);
      this.#lastActivity = Date.now();
      socket.on("close", () => {
        this.#connections.delete(connection);
        this.#lastActivity = Date.now();
      });
    });
  }

  /** Probes the old socket, binds a fresh one (0600) and starts the idle clock. */
  static async listen(options: AgentServerOptions): Promise<AgentServer> {
    // One agent at a time from the probe to the bind: a second one finds this one serving (start-hold.ts).
    const release = await holdStart(options.socket, options.log ?? (() => {}));
    try {
      await clearStaleSocket(options.socket);
      const server = new AgentServer(options);
      if (options.adopt !== undefined) {
        try {
          await options.adopt(server.#ctx);
        } catch (error) {
          server.#log(`re-adopting what a previous agent left failed: ${(error as Error).message}`);
        }
      }
      await server.#bind();
      return server;
    } finally {
      release();
    }
  }

  async #listenOn(server: net.Server): Promise<void> {
    const { socket } = this.options;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socket, () => {
        server.off("error", reject);
        resolve();
      });
    });
    // After the bind, an error is a failed accept (EMFILE): the client sees
    // its connect fail; the agent and its sessions go on.
    server.on("error", (error) => this.#log(`accepting a connection failed: ${fdExhaustionMessage(error) ?? error.message}`));
    restrictToOwner(socket);
    writeFileSync(agentPaths(socket).pid, `${process.pid}\n`, { mode: 0o600 });
    this.#drop?.close();
    const drop = DescriptorDrop.open(socket, this.#addonRoot);
    this.#drop = typeof drop === "string" ? null : drop;
    if (typeof drop === "string") this.#log(`connect clients relay their lines: ${drop}`);
  }

  async #bind(): Promise<void> {
    const { socket } = this.options;
    await this.#listenOn(this.#server);
    const watch = new SocketWatch({
      socket,
      relisten: async () => {
        ensureStateDir(path.dirname(socket));
        // The old listener's path is gone: it can never be reached again (its connections go on).
        // Closed first: closing a Unix listener unlinks its path, which would be the new one's.
        this.#server.close();
        this.#server = this.#createServer();
        await this.#listenOn(this.#server);
      },
      giveUp: (why) => void this.stop(why),
      log: (line) => this.#log(line),
    });
    this.#socketTimer = setInterval(() => void watch.check(), SOCKET_CHECK_MS);
    this.#socketTimer.unref?.();
    const every = Math.max(50, Math.min(1000, Math.floor(this.options.idleTimeoutMs / 4)));
    this.#idleTimer = setInterval(() => this.#checkIdle(), every);
    this.#log(`listening on ${socket} (pid ${process.pid}, idle timeout ${this.options.idleTimeoutMs} ms)`);
  }

  #checkIdle(): void {
    // Screens grow as their programs write: past the budget, the least active give memory back.
    const budget = this.#ctx.budgets.screenCells;
    const inUse = makeScreenRoom(this.registry, 0, budget);
    if (inUse > budget && !this.#overBudgetSaid) this.#log(`screens hold ${inUse} cells, over the budget of ${budget}, and none can give more back`);
    this.#overBudgetSaid = inUse > budget;
    // Jobs keep the agent up until reaped: a finished job's exit facts are still to be read.
    if (this.#connections.size > 0 || this.registry.aliveCount() > 0 || this.jobs.size > 0) return;
    if (Date.now() - this.#lastActivity >= this.options.idleTimeoutMs) void this.stop("idle, no session running");
  }

  /**
   * Closes every session (their trees gone), the connections and the socket.
   * With `keep`, sessions and jobs are left running: when this process exits
   * their guardians lose their owner and wait for the next agent (issue 11).
   * Idempotent.
   */
  async stop(reason: string, keep = false): Promise<void> {
    if (this.#stopping) return this.stopped;
    this.#stopping = true;
    this.#log(`stopping: ${reason}`);
    clearInterval(this.#idleTimer);
    clearInterval(this.#socketTimer);
    this.#server.close();
    if (keep) {
      for (const connection of this.#connections) connection.close();
      this.#removeFiles();
      this.#log(`stopped; ${this.registry.aliveCount()} session(s) and ${this.jobs.liveCount()} job(s) left for the next agent`);
      this.#resolveStopped();
      return this.stopped;
    }
    const closing = this.registry.all().map(async (entry) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A guardian that cannot take our terminate (its channel full of input a
      // stopped program does not read) must not keep the agent up forever:
      // once we are gone it loses its owner and terminates the tree itself.
      const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_SESSION_DEADLINE_MS)));
      try {
        const result = await Promise.race([entry.session.close({ graceMs: 1000, force: false }), late]);
        if (result === "late") this.#log(`session ${entry.id} did not confirm its end in ${STOP_SESSION_DEADLINE_MS} ms; its guardian terminates it once the agent is gone`);
      } catch (error) {
        this.#log(`closing session ${entry.id} failed: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    });
    await Promise.all([...closing, stopAllJobs(this.jobs, 1000, this.#log)]);
    // Everything was ended on purpose: no later agent is to show these jobs and sessions.
    removeAllDoneJobs(this.#ctx.stateDir);
    removeAllSessionEnds(this.#ctx.stateDir);
    for (const connection of this.#connections) connection.close();
    this.#removeFiles();
    this.#log("stopped");
    this.#resolveStopped();
    return this.stopped;
  }

  #removeFiles(): void {
    this.#drop?.close();
    this.#drop = null;
    const paths = agentPaths(this.options.socket);
    try {
      // Only remove what is still ours: a newer agent may have taken the path.
      if (readFileSync(paths.pid, "utf8").trim() === String(process.pid)) {
        rmSync(paths.pid, { force: true });
        rmSync(paths.socket, { force: true });
      }
    } catch {
      // already gone
    }
  }
}
