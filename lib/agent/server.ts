// The agent daemon: binds the socket (after probing a leftover one), serves
// connections, exits by itself once no session runs and nobody has asked
// anything for the idle time, and on every way out closes every session so
// that nothing it started is left running.
import net from "node:net";
import path from "node:path";
import { writeFileSync, rmSync, readFileSync } from "node:fs";
import process from "node:process";
import type { AgentContext, AgentDefaults } from "./agent-context.ts";
import { agentPaths } from "./agent-paths.ts";
import { AgentConnection } from "./connection.ts";
import { SessionRegistry } from "./session-registry.ts";
import type { SessionFactory } from "./session-port.ts";
import { clearStaleSocket } from "./socket-probe.ts";
import { restrictToOwner } from "./state-dir.ts";
import { JobTable } from "../jobs/job-table.ts";
import { stopAllJobs } from "../jobs/stop-all.ts";

export interface AgentServerOptions {
  readonly socket: string;
  readonly idleTimeoutMs: number;
  readonly openSession: SessionFactory;
  readonly defaults: AgentDefaults;
  readonly log?: (line: string) => void;
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
  #stopping = false;
  #resolveStopped!: () => void;
  readonly #log: (line: string) => void;

  private constructor(readonly options: AgentServerOptions) {
    this.#log = options.log ?? (() => {});
    this.stopped = new Promise((resolve) => (this.#resolveStopped = resolve));
    const ctx: AgentContext = {
      registry: this.registry,
      jobs: this.jobs,
      stateDir: path.dirname(options.socket),
      openSession: options.openSession,
      defaults: options.defaults,
      startedAt: this.startedAt,
      socket: options.socket,
      requestStop: () => setImmediate(() => void this.stop("asked to stop")),
      touch: () => (this.#lastActivity = Date.now()),
      log: (line) => this.#log(line),
    };
    this.#server = net.createServer((socket) => {
      const connection = new AgentConnection(socket, ctx, this.#log);
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
    await clearStaleSocket(options.socket);
    const server = new AgentServer(options);
    await server.#bind();
    return server;
  }

  async #bind(): Promise<void> {
    const { socket } = this.options;
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(socket, () => {
        this.#server.off("error", reject);
        resolve();
      });
    });
    restrictToOwner(socket);
    writeFileSync(agentPaths(socket).pid, `${process.pid}\n`, { mode: 0o600 });
    const every = Math.max(50, Math.min(1000, Math.floor(this.options.idleTimeoutMs / 4)));
    this.#idleTimer = setInterval(() => this.#checkIdle(), every);
    this.#log(`listening on ${socket} (pid ${process.pid}, idle timeout ${this.options.idleTimeoutMs} ms)`);
  }

  #checkIdle(): void {
    // Jobs keep the agent up until reaped: a finished job's exit facts are still to be read.
    if (this.#connections.size > 0 || this.registry.aliveCount() > 0 || this.jobs.size > 0) return;
    if (Date.now() - this.#lastActivity >= this.options.idleTimeoutMs) void this.stop("idle, no session running");
  }

  /** Closes every session (their trees gone), the connections and the socket. Idempotent. */
  async stop(reason: string): Promise<void> {
    if (this.#stopping) return this.stopped;
    this.#stopping = true;
    this.#log(`stopping: ${reason}`);
    clearInterval(this.#idleTimer);
    this.#server.close();
    const closing = this.registry.all().map(async (entry) => {
      try {
        await entry.session.close({ graceMs: 1000, force: false });
      } catch (error) {
        this.#log(`closing session ${entry.id} failed: ${(error as Error).message}`);
      }
    });
    await Promise.all([...closing, stopAllJobs(this.jobs, 1000, this.#log)]);
    for (const connection of this.#connections) connection.close();
    this.#removeFiles();
    this.#log("stopped");
    this.#resolveStopped();
    return this.stopped;
  }

  #removeFiles(): void {
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
