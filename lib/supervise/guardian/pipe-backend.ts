// The guardian-backed SpawnBackend: the child runs under native/
// corral-guardian, so termination is its census (setsid and double-fork
// escapees included, pids pinned by pidfd), and the exit facts come from
// its waitpid. Same SupervisedProcess shape as the process-group backend:
// run and collect do not change.
// Longer than 300 lines because GuardianProcess maps every guardian event,
// receipt and loss (the loss path included: it needs the process's private
// state) onto SupervisedProcess in one place; how stdio choices reach the
// guardian is in guardian-stdio.ts.
import { constants as osConstants } from "node:os";
import { Writable, type Readable } from "node:stream";
import type { ResolvedSpawn, SpawnBackend, SupervisedProcess, SupervisionResult, TerminateOptions } from "../backend.ts";
import { SpawnError } from "../spawn-error.ts";
import { type Receipt, receiptOfLeftovers } from "../../core/receipt.ts";
import type { SignalTarget, SupervisedTreeEvents } from "../handle.ts";
import { TreeEvents } from "../tree-events.ts";
import { exitFactsOf } from "./facts.ts";
import type { Guardian } from "./client.ts";
import type { ExitedEvent, GuardianLaunch, StreamId, TerminateReceipt } from "./protocol.ts";
import { monotonicMs } from "../monotonic-ms.ts";
import { armDeadline } from "../timeout.ts";
import { startTimer } from "../../runtime/timer.ts";
import { pidsLeftByCensus, receiptOfCensus, uncertain } from "../receipts.ts";
import { endWhatTheCensusMissed } from "./census-unseen.ts";
import type { OrphanedTreeReport } from "../orphaned-tree.ts";
import { captureLimits, captureOf, guardianStdio, type SpilledPicture, StreamRoute } from "./guardian-stdio.ts";
import { TailGather } from "./tail-gather.ts";
import { liveDescendants, namedProcesses } from "../../proc/tree-members.ts";
import { describeEnd } from "../../core/exit-words.ts";

/** A SpawnBackend running each child under its own guardian (binary at `binary`). */
export function guardianSpawnBackend(binary: string): SpawnBackend {
  return { name: "guardian", start: (resolved) => startUnderGuardian(resolved, binary) };
}

async function startUnderGuardian(resolved: ResolvedSpawn, binary: string): Promise<SupervisedProcess> {
  const { spec } = resolved;
  const outCapture = captureOf(spec.stdout);
  const errCapture = captureOf(spec.stderr);
  const launch: GuardianLaunch = {
    ...(outCapture?.spill ? { spillStdout: outCapture.spill } : {}),
    ...(errCapture?.spill ? { spillStderr: errCapture.spill } : {}),
    // Not --spill-direct: with the file as the child's own stdout, a full disk
    // would fail the child's writes (issue 15). Through a pipe the guardian
    // splices into the file and, when the file cannot grow, keeps the tail.
    ...captureLimits(outCapture, errCapture),
    ...(outCapture ? { captureStdout: true } : {}),
    ...(errCapture ? { captureStderr: true } : {}),
    ...(outCapture?.tee != null ? { teeStdout: outCapture.tee } : {}),
    ...(errCapture?.tee != null ? { teeStderr: errCapture.tee } : {}),
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
  const { spawnGuardian } = await import("./launch.ts");
  const startedAt = monotonicMs();
  // No socket: the guardian speaks over the socket pair it inherits (nothing
  // reconnects to a run's guardian), so nothing is made in /tmp and a corral
  // killed with SIGKILL leaves nothing behind but the connection's end,
  // which the guardian reads as its owner gone.
  const guardian = spawnGuardian(launch, { env: spec.env, binary });
  const child = new GuardianProcess(guardian, resolved, startedAt);
  try {
    const started = await guardian.started;
    child.pid = started.pid;
  } catch (error) {
    guardian.detach();
    await guardian.processExit;
    const message = error instanceof Error ? error.message : String(error);
    const failure = /no such file/i.test(message) ? "not-found" : /permission|exec format/i.test(message) ? "not-executable" : "spawn-failed";
    throw new SpawnError(failure, `${spec.argv[0]}: ${message}`);
  }
  child.supervise();
  return child;
}

class GuardianProcess implements SupervisedProcess {
  readonly backend = "guardian" as const;
  readonly #events = new TreeEvents();
  pid = 0;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  exited!: Promise<SupervisionResult>;
  readonly #routes: Partial<Record<StreamId, StreamRoute>> = {};
  /** The tail sent since the last `spilled` event, and the last spilled picture, per stream. */
  readonly #tails: Record<StreamId, TailGather>;
  readonly #spilled: Partial<Record<StreamId, SpilledPicture>> = {};
  /** The census of the first terminate; null: the guardian did not answer it. */
  #termination: Promise<TerminateReceipt | null> | null = null;
  #receipt: TerminateReceipt | undefined;
  /** The census told as a Receipt, once. */
  #told: Promise<Receipt> | undefined;
  #timedOut = false;
  /** How many processes the tree held when the timeout fired. */
  #signalled = 0;
  /** Failed syscalls the guardian reported, and receipt notes without a pid. */
  readonly #faults: string[] = [];
  /** A stream's output is incomplete because of a fault. */
  #outputFault = false;
  /** corral killed a guardian that stopped answering (see #answered). */
  #unresponsive = false;
  /** What #endStuck terminated before it killed an unresponsive guardian. */
  #stuckCleanup: OrphanedTreeReport | undefined;

  constructor(readonly guardian: Guardian, readonly resolved: ResolvedSpawn, readonly startedAt: number) {
    const { spec } = resolved;
    if (spec.stdout !== undefined && spec.stdout !== "inherit" && spec.stdout !== "ignore") this.#routes[1] = new StreamRoute(spec.stdout, guardian);
    const err = spec.stderr;
    if (err !== undefined && err !== "stdout" && err !== "inherit" && err !== "ignore") this.#routes[2] = new StreamRoute(err, guardian);
    this.stdout = this.#routes[1]?.readable ?? null;
    this.stderr = this.#routes[2]?.readable ?? null;
    guardian.on("output", (stream, bytes) => this.#routes[stream]?.push(bytes));
    guardian.on("stopped", (signal) => this.#events.stopped(signal));
    guardian.on("continued", () => this.#events.continued());
    guardian.on("eof", (stream) => {
      const route = this.#routes[stream];
      if (route) route.eofReported = true;
      route?.end();
    });
    this.#tails = { 1: new TailGather(captureOf(spec.stdout)?.tailBytes ?? 0), 2: new TailGather(captureOf(spec.stderr)?.tailBytes ?? 0) };
    guardian.on("tail", (stream, bytes) => this.#tails[stream].push(bytes));
    guardian.on("progress", (e) => {
      captureOf(e.stream === 1 ? spec.stdout : spec.stderr)?.result.captureProgress?.(e.total, e.lineFeeds, e.last);
    });
    guardian.on("spilled", (e) => {
      const error = e.error === null ? null : { code: errnoName(e.errno ?? 0), message: e.error };
      // A failed spill still has the right tail when the guardian kept it (tailSent).
      const counted = e.lineFeeds === undefined ? undefined : { lineFeeds: e.lineFeeds, beforeTail: e.beforeTail ?? -1 };
      const tail = this.#tails[e.stream].take();
      if (e.error === null || e.tailSent === true) this.#spilled[e.stream] = { tail, total: e.total, error, counted };
      else this.#spilled[e.stream] = { tail: new Uint8Array(0), total: -1, error, counted: undefined };
    });
    guardian.on("close", () => {
      for (const route of Object.values(this.#routes)) route.end();
    });
    guardian.on("fault", (f) => {
      if (f.stream !== 0) this.#outputFault = true;
      this.#faults.push(`${f.what}: ${f.syscall} failed (${f.message})`);
    });
    this.stdin = spec.stdin === "pipe"
      ? new Writable({
        write: (chunk: Uint8Array, _encoding, done) => (guardian.write(chunk), done()),
        final: (done) => void guardian.closeStdin().then(() => done(), () => done()),
      })
      : null;
  }

  terminate(graceMs?: number, firstSignal?: NodeJS.Signals): Promise<Receipt> {
    const options: Partial<TerminateOptions> = { ...(graceMs !== undefined ? { graceMs } : {}), ...(firstSignal !== undefined ? { signal: firstSignal } : {}) };
    this.#told ??= this.#census(options).then((census) => census === null ? uncertain("the guardian did not answer a terminate") : receiptOfCensus(census));
    return this.#told;
  }

  /** Idempotent: later calls get the first call's census. */
  #census(options: Partial<TerminateOptions> = {}): Promise<TerminateReceipt | null> {
    this.#termination ??= (async () => {
      // The first signal rides in the terminate request itself: a separate signal followed by
      // terminate's SIGTERM would kill a child that handles SIGINT and exits on its own.
      const graceMs = options.graceMs ?? this.resolved.spec.graceMs;
      const receipt = await this.#answered(this.guardian.terminate(graceMs, options.signal ?? "SIGTERM"), graceMs);
      // A guardian blind to /proc leaves its adopted escapees to us (census-unseen.ts).
      return this.#noted(await endWhatTheCensusMissed(this.guardian, receipt, graceMs));
    })().catch(() => null);
    return this.#termination;
  }

  /**
   * The usual end: terminate() and the guardian's exit in one request.
   * shutdown is terminate followed by exit and answers with the same
   * receipt, so this saves terminate-then-shutdown(0)'s second census of
   * /proc and a round trip (some 3 ms of every run).
   */
  #terminateAndExit(): Promise<TerminateReceipt | null> {
    const graceMs = this.resolved.spec.graceMs;
    this.#termination = this.#answered(this.guardian.shutdown(graceMs), graceMs)
      .then(async (receipt) => this.#noted(await endWhatTheCensusMissed(this.guardian, receipt, graceMs)))
      .catch(() => null);
    return this.#termination;
  }

  /**
   * A terminate answers within its grace plus the guardian's SIGKILL wait;
   * a guardian that does not (stuck, spinning) is killed, so corral always
   * answers SIGTERM: the loss path then cleans up what it can identify.
   */
  async #answered<T>(request: Promise<T>, graceMs: number): Promise<T> {
    let stop: (() => void) | undefined;
    const stuck = new Promise<never>((_, reject) => {
      stop = startTimer(graceMs + UNANSWERED_MARGIN_MS, () => {
        this.#unresponsive = true;
        void this.#endStuck(graceMs).finally(() => reject(new Error("the guardian did not answer a terminate")));
      });
    });
    try {
      return await Promise.race([request, stuck]);
    } finally {
      stop?.();
    }
  }

  /**
   * A guardian that stopped answering still parents what it adopted (it is
   * the subreaper: setsid escapees whose parent died are its children), so
   * its tree is ended while it lives, found by that parenthood, and only then
   * is it killed: killed first, it would hand them to init, out of sight.
   */
  async #endStuck(graceMs: number): Promise<void> {
    const child = this.guardian.child;
    if (child !== undefined) {
      const { terminateOrphanedTree } = await import("../orphaned-tree.ts");
      this.#stuckCleanup = await terminateOrphanedTree(child, graceMs, this.guardian.pid);
    }
    this.guardian.process?.kill("SIGKILL");
  }

  /** Keeps the census for the exit facts; its notes without a pid become fault lines. */
  #noted(receipt: TerminateReceipt): TerminateReceipt {
    this.#receipt = receipt;
    for (const u of receipt.uncertain) {
      if (u.pid === null) this.#faults.push(`terminate: ${u.reason}`);
    }
    return receipt;
  }

  /** Output goes where the spec says; `exit` and `done` come with `exited`. */
  on<K extends keyof SupervisedTreeEvents>(event: K, listener: SupervisedTreeEvents[K]): void {
    this.#events.on(event, listener);
  }

  /** Into the child's stdin when the spec piped it; otherwise dropped. */
  write(data: Uint8Array | string): void {
    this.stdin?.write(data);
  }

  /** No terminal. */
  resize(): void {}

  /** Rejects when the guardian could not give it. */
  signal(signal: string, target: SignalTarget): Promise<void> {
    return this.guardian.signal(signal, target);
  }

  /** Flow control is the route's backpressure (StreamRoute) or the sink's. */
  pause(): void {}

  resume(): void {}

  /** The guardian exits by itself once the tree is swept (#supervise). */
  dispose(): void {}

  supervise(): void {
    this.exited = this.#supervise().then((result) => {
      const receipt = this.#receipt !== undefined ? receiptOfCensus(this.#receipt) : receiptOfLeftovers(result.facts.forced, result.uncertain);
      this.#events.done(result.facts, receipt);
      return result;
    });
  }

  async #supervise(): Promise<SupervisionResult> {
    const { graceMs, leaveRunning } = this.resolved.spec;
    const disarm = armDeadline(this.resolved.spec, () => void this.terminate(), () => {
      this.#timedOut = true;
      this.#signalled = liveDescendants(this.guardian.pid ?? 0).length;
    });
    const exited = await this.guardian.exited.catch(() => null);
    const durationMs = Math.round(monotonicMs() - this.startedAt);
    disarm();
    if (exited === null) return this.#afterLoss(null, durationMs);
    this.resolved.spec.onChildExit?.(this.pid);
    const outputComplete = await this.#waitForEof(graceMs);
    // Something still holds the output after the command exited: named before it is terminated.
    const survivors = !outputComplete && this.#termination === null && leaveRunning !== true
      ? namedProcesses(liveDescendants(this.guardian.pid ?? 0))
      : [];
    let census: TerminateReceipt | null = null;
    let answered = true;
    if (this.#termination !== null) {
      census = await this.#census();
      answered = await this.guardian.shutdown(0).then(() => true, () => false);
    } else if (leaveRunning === true) {
      answered = await this.guardian.release().then(() => true, () => false);
    } else {
      census = await this.#terminateAndExit();
      answered = this.#receipt !== undefined;
    }
    // The child's exit is known, but the guardian died before it cleaned up.
    if (!answered && this.#receipt === undefined && leaveRunning !== true) return this.#afterLoss(exited, durationMs);
    this.guardian.detach();
    for (const route of Object.values(this.#routes)) route.end();
    // The last spilled picture is final now that the tree is gone.
    for (const stream of [1, 2] as const) {
      const picture = this.#spilled[stream];
      const sink = captureOf(stream === 1 ? this.resolved.spec.stdout : this.resolved.spec.stderr)?.result ?? null;
      if (picture === undefined || sink === null) continue;
      // total -1: the tail could not be had from the guardian; the live head and bytes stand.
      if (picture.total >= 0) sink.adoptTail(picture.tail, picture.total, picture.counted);
      if (picture.error !== null) sink.externalSpillFailed(picture.error.code, picture.error.message);
    }
    const complete = outputComplete && !this.#outputFault;
    const facts = exitFactsOf(exited, { timedOut: this.#timedOut, durationMs, outputComplete: complete, ...(this.#receipt ? { receipt: this.#receipt } : {}) });
    const told = {
      ...(this.#timedOut ? { signalled: this.#signalled } : {}),
      ...(survivors.length > 0 ? { survivors } : {}),
    };
    return { facts: { ...facts, forced: census?.forced ?? false, ...told }, uncertain: census === null ? [] : pidsLeftByCensus(census), ...this.#faultList() };
  }

  #faultList(): { faults?: readonly string[] } {
    return this.#faults.length === 0 ? {} : { faults: [...this.#faults] };
  }

  /**
   * The guardian died (SIGKILL, OOM) before it reported the exit
   * (`exited` null) or before it cleaned up the tree: corral terminates what
   * it can still identify itself, and the loss becomes its own fact.
   */
  async #afterLoss(exited: ExitedEvent | null, durationMs: number): Promise<SupervisionResult> {
    const guardianPid = this.guardian.pid;
    let how = await withinMs(this.guardian.processExit, 200);
    this.guardian.detach();
    for (const route of Object.values(this.#routes)) route.end();
    const child = this.guardian.child;
    const { terminateOrphanedTree, describeOrphanedTree } = await import("../orphaned-tree.ts");
    // A guardian still alive (on its way out, or stuck) still parents what it adopted.
    const found = child === undefined
      ? { terminated: [], forced: false, left: [], procUnreadable: false }
      : await terminateOrphanedTree(child, this.resolved.spec.graceMs, how === undefined ? guardianPid : 0);
    const earlier = this.#stuckCleanup;
    const tree = earlier === undefined ? found : {
      ...found,
      terminated: [...new Set([...earlier.terminated, ...found.terminated])],
      forced: earlier.forced || found.forced,
    };
    how ??= await withinMs(this.guardian.processExit, 2000);
    if (how === undefined) {
      this.#unresponsive = true;
      this.guardian.process?.kill("SIGKILL");
    }
    const cause = this.#unresponsive ? "stopped answering (corral killed it)" : describeEnd(how);
    const known = exited ?? { code: null, signal: null, core: false };
    const base = exitFactsOf(known, { timedOut: this.#timedOut, durationMs, outputComplete: false });
    return {
      facts: {
        ...base,
        forced: tree.forced,
        supervisorLost: { pid: guardianPid, cause, cleanup: describeOrphanedTree(tree) },
      },
      uncertain: tree.left,
      ...this.#faultList(),
    };
  }

  /** True when every routed stream reached EOF within `ms` (a grandchild may hold one open). */
  async #waitForEof(ms: number): Promise<boolean> {
    const routes = Object.values(this.#routes);
    if (routes.every((r) => r.eof)) return routes.every((r) => r.eofReported);
    const ended = await withinMs(Promise.all(routes.map((r) => r.ended)).then(() => true as const), ms);
    return ended === true && routes.every((r) => r.eofReported);
  }
}

/** "ENOSPC" for 28: the code Node would give the same failure. */
function errnoName(n: number): string {
  for (const [name, value] of Object.entries(osConstants.errno)) {
    if (value === n) return name;
  }
  return `errno ${n}`;
}

/** The promise's value, or undefined when it did not settle within `ms`. */
async function withinMs<T>(promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (promise === undefined) return undefined;
  let stop: (() => void) | undefined;
  const expired = new Promise<undefined>((resolve) => (stop = startTimer(ms, () => resolve(undefined))));
  try {
    return await Promise.race([promise, expired]);
  } finally {
    stop?.();
  }
}

/** Beyond its grace, a terminate has the guardian's SIGKILL wait (2 s) and this much more to answer. */
const UNANSWERED_MARGIN_MS = 10_000;
