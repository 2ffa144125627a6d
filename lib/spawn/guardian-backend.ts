// The guardian-backed SpawnBackend: the child runs under native/
// corral-guardian, so termination is its census (setsid and double-fork
// escapees included, pids pinned by pidfd), and the exit facts come from
// its waitpid. Same SupervisedProcess shape as the process-group backend:
// run and collect do not change.
import { rmSync } from "node:fs";
import { PassThrough, Writable, type Readable } from "node:stream";
import type { ResolvedSpawn, SpawnBackend, SupervisedProcess, SupervisionResult } from "./backend.ts";
import type { ByteSink, StdioChoice } from "./spec.ts";
import { SpawnError } from "./spawn-error.ts";
import type { TerminateOptions, TerminationReport } from "./terminate.ts";
import { exitFactsOf } from "../native/guardian-facts.ts";
import type { Guardian } from "../native/guardian-client.ts";
import type { GuardianLaunch, StdioChoice as GuardianStdio, StreamId, TerminateReceipt } from "../native/guardian-protocol.ts";
import { monotonicMs } from "./monotonic-ms.ts";
import { makeRunSocketDir } from "./run-socket-dir.ts";

/** A SpawnBackend running each child under its own guardian (binary at `binary`). */
export function guardianSpawnBackend(binary: string): SpawnBackend {
  return { name: "guardian", start: (resolved) => startUnderGuardian(resolved, binary) };
}

/**
 * A sink whose spill file someone else writes (BoundedStore opened with
 * externalSpill): collect's fast path. The guardian makes that file the
 * child's stdout/stderr (--spill-direct), frames only the head, and reads the
 * tail and the size back; adoptTail() hands them to the store.
 */
interface ExternalSpillSink extends ByteSink {
  readonly spillIsExternal: boolean;
  readonly spillPath: string | null;
  readonly headBytes: number;
  readonly tailBytes: number;
  adoptTail(tail: Uint8Array, total: number): void;
}

function externalSpill(choice: StdioChoice | "stdout" | undefined): (ExternalSpillSink & { spillPath: string }) | null {
  if (typeof choice !== "object") return null;
  const sink = choice.sink as Partial<ExternalSpillSink>;
  if (sink.spillIsExternal !== true || typeof sink.spillPath !== "string" || typeof sink.adoptTail !== "function") return null;
  return sink as ExternalSpillSink & { spillPath: string };
}

function guardianStdio(choice: StdioChoice | "inherit" | "pipe" | "ignore" | undefined): GuardianStdio {
  if (choice === undefined || choice === "inherit") return "inherit";
  return choice === "ignore" ? "null" : "pipe";
}

async function startUnderGuardian(resolved: ResolvedSpawn, binary: string): Promise<SupervisedProcess> {
  const { spec } = resolved;
  // A private socket dir per child: nothing to clean up in the shared state dir.
  const dir = makeRunSocketDir();
  const outSpill = externalSpill(spec.stdout);
  const errSpill = externalSpill(spec.stderr);
  const limits = outSpill ?? errSpill;
  const launch: GuardianLaunch = {
    ...(outSpill ? { spillStdout: outSpill.spillPath } : {}),
    ...(errSpill ? { spillStderr: errSpill.spillPath } : {}),
    ...(limits ? { spillDirect: true, headBytes: limits.headBytes, tailBytes: limits.tailBytes } : {}),
    argv: spec.argv,
    file: resolved.file,
    cwd: resolved.cwd,
    mode: "pipe",
    stdin: guardianStdio(spec.stdin),
    stdout: guardianStdio(spec.stdout),
    stderr: spec.stderr === "stdout" ? "stdout" : guardianStdio(spec.stderr),
    graceMs: spec.graceMs,
  };
  // Loaded here, not at the top: the client pulls in node:net, which
  // `run` under the process-group backend never needs (start-up, issue 2).
  const { spawnGuardian } = await import("../native/guardian-launch.ts");
  const startedAt = monotonicMs();
  const guardian = spawnGuardian(launch, { stateDir: dir, env: spec.env, binary });
  const child = new GuardianProcess(guardian, resolved, startedAt);
  try {
    const started = await guardian.started;
    child.pid = started.pid;
    // Connected: the socket file is no longer needed (run-socket-dir.ts).
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    guardian.detach();
    await guardian.processExit;
    rmSync(dir, { recursive: true, force: true });
    const message = error instanceof Error ? error.message : String(error);
    const failure = /no such file/i.test(message) ? "not-found" : /permission|exec format/i.test(message) ? "not-executable" : "spawn-failed";
    throw new SpawnError(failure, `${spec.argv[0]}: ${message}`);
  }
  void guardian.processExit?.then(() => rmSync(dir, { recursive: true, force: true }));
  child.supervise();
  return child;
}

/** Output of one stream: into the caller's sink (with backpressure), or a Readable. */
class StreamRoute {
  readonly readable: Readable | null;
  readonly #sink: ByteSink | null;
  eof = false;
  /** Resolves at the stream's EOF (or when the guardian's connection closed). */
  readonly ended: Promise<void>;
  #resolveEnded!: () => void;

  constructor(choice: StdioChoice | undefined, readonly guardian: Guardian) {
    this.#sink = typeof choice === "object" ? choice.sink : null;
    this.readable = choice === "pipe" ? new PassThrough() : null;
    this.ended = new Promise((resolve) => (this.#resolveEnded = resolve));
  }

  push(bytes: Uint8Array): void {
    if (this.#sink !== null && !this.#sink.write(bytes)) {
      this.guardian.pause();
      this.#sink.onDrain(() => this.guardian.resume());
    }
    (this.readable as PassThrough | null)?.write(bytes);
  }

  end(): void {
    if (this.eof) return;
    this.eof = true;
    this.readable?.push(null);
    this.#resolveEnded();
  }
}

class GuardianProcess implements SupervisedProcess {
  pid = 0;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  exited!: Promise<SupervisionResult>;
  readonly #routes: Partial<Record<StreamId, StreamRoute>> = {};
  /** Tail frames since the last `spilled` event, and the last spilled picture, per stream. */
  readonly #tails: Record<StreamId, Uint8Array[]> = { 1: [], 2: [] };
  readonly #spilled: Partial<Record<StreamId, { tail: Uint8Array; total: number }>> = {};
  #termination: Promise<TerminationReport> | null = null;
  #receipt: TerminateReceipt | undefined;
  #timedOut = false;

  constructor(readonly guardian: Guardian, readonly resolved: ResolvedSpawn, readonly startedAt: number) {
    const { spec } = resolved;
    if (spec.stdout !== undefined && spec.stdout !== "inherit" && spec.stdout !== "ignore") this.#routes[1] = new StreamRoute(spec.stdout, guardian);
    const err = spec.stderr;
    if (err !== undefined && err !== "stdout" && err !== "inherit" && err !== "ignore") this.#routes[2] = new StreamRoute(err, guardian);
    this.stdout = this.#routes[1]?.readable ?? null;
    this.stderr = this.#routes[2]?.readable ?? null;
    guardian.on("output", (stream, bytes) => this.#routes[stream]?.push(bytes));
    guardian.on("eof", (stream) => this.#routes[stream]?.end());
    guardian.on("tail", (stream, bytes) => this.#tails[stream].push(bytes.slice()));
    guardian.on("spilled", (e) => {
      if (e.error === null) this.#spilled[e.stream] = { tail: concat(this.#tails[e.stream]), total: e.total };
      this.#tails[e.stream] = [];
    });
    guardian.on("close", () => {
      for (const route of Object.values(this.#routes)) route.end();
    });
    this.stdin = spec.stdin === "pipe"
      ? new Writable({
        write: (chunk: Uint8Array, _encoding, done) => (guardian.write(chunk), done()),
        final: (done) => void guardian.closeStdin().then(() => done(), () => done()),
      })
      : null;
  }

  terminate(options: Partial<TerminateOptions> = {}): Promise<TerminationReport> {
    this.#termination ??= (async () => {
      const first = options.signal;
      if (first !== undefined && first !== "SIGTERM") await this.guardian.signal(first, "tree").catch(() => {});
      const receipt = await this.guardian.terminate(options.graceMs ?? this.resolved.spec.graceMs);
      this.#receipt = receipt;
      return reportOf(receipt);
    })().catch(() => ({ forced: false, uncertain: [] }));
    return this.#termination;
  }

  /**
   * The usual end: terminate() and the guardian's exit in one request.
   * shutdown is terminate followed by exit and answers with the same
   * receipt, so this saves terminate-then-shutdown(0)'s second census of
   * /proc and a round trip (some 3 ms of every run).
   */
  #terminateAndExit(): Promise<TerminationReport> {
    this.#termination = this.guardian.shutdown(this.resolved.spec.graceMs).then((receipt) => {
      this.#receipt = receipt;
      return reportOf(receipt);
    }).catch(() => ({ forced: false, uncertain: [] }));
    return this.#termination;
  }

  supervise(): void {
    this.exited = this.#supervise();
  }

  async #supervise(): Promise<SupervisionResult> {
    const { timeoutMs, signal: abort, graceMs, leaveRunning } = this.resolved.spec;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
      this.#timedOut = true;
      void this.terminate();
    }, timeoutMs);
    const onAbort = () => void this.terminate();
    abort?.addEventListener("abort", onAbort, { once: true });
    if (abort?.aborted === true) onAbort();
    const exited = await this.guardian.exited.catch(() => ({ code: null, signal: 9, core: false }));
    const durationMs = Math.round(monotonicMs() - this.startedAt);
    clearTimeout(timer);
    abort?.removeEventListener("abort", onAbort);
    const outputComplete = await this.#waitForEof(graceMs);
    let report: TerminationReport = { forced: false, uncertain: [] };
    if (this.#termination !== null) {
      report = await this.terminate();
      await this.guardian.shutdown(0).catch(() => {});
    } else if (leaveRunning === true) {
      await this.guardian.release().catch(() => {});
    } else {
      report = await this.#terminateAndExit();
    }
    this.guardian.detach();
    for (const route of Object.values(this.#routes)) route.end();
    // The last spilled picture is final now that the tree is gone.
    for (const stream of [1, 2] as const) {
      const picture = this.#spilled[stream];
      const sink = externalSpill(stream === 1 ? this.resolved.spec.stdout : this.resolved.spec.stderr);
      if (picture && sink) sink.adoptTail(picture.tail, picture.total);
    }
    const facts = exitFactsOf(exited, { timedOut: this.#timedOut, durationMs, outputComplete, ...(this.#receipt ? { receipt: this.#receipt } : {}) });
    return { facts: { ...facts, forced: report.forced }, uncertain: report.uncertain };
  }

  /** True when every routed stream reached EOF within `ms` (a grandchild may hold one open). */
  async #waitForEof(ms: number): Promise<boolean> {
    const routes = Object.values(this.#routes);
    if (routes.every((r) => r.eof)) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([Promise.all(routes.map((r) => r.ended)).then(() => true as const), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function reportOf(receipt: TerminateReceipt): TerminationReport {
  return {
    forced: receipt.forced,
    uncertain: receipt.status === "confirmed" ? [] : receipt.uncertain.map((u) => u.pid ?? -1),
  };
}
