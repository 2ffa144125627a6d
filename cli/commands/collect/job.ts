// `collect --job ID`: a job's output by byte offset, never consumed; with
// --follow until the job ends, then its status. `collect --tty -- CMD`: a
// command that needs a terminal, captured bounded like any collect.
// --facts: the job's exit facts once it has ended (with --job: when it had
// ended by the last read; otherwise a note says why none were written).
import { checkFactsTarget, type FactsTarget, reportFacts, writeFacts } from "../../shared/facts-output.ts";
import { announceWithheld, credentialNames } from "../../shared/env-dropped-note.ts";
import { dieIfKilledBy, FORWARDED_SIGNALS } from "../../shared/signal-death.ts";
import { Buffer } from "node:buffer";
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { reachAgent, reportFailure, withAgent } from "../../shared/agent-reach.ts";
import type { CollectFlags } from "./flags.ts";
import { closeCollectStores, openCollectStores } from "./stores.ts";
import { jsonReport, liveSummary, plainParts, writeAll } from "./report.ts";
import { Heartbeat } from "./heartbeat.ts";
import { groupMarkers } from "./ci-group.ts";
import { prepareJob } from "../../shared/jobs/request.ts";
import { terminalSize } from "../../shared/terminal-hold.ts";
import { noAgent } from "../../shared/jobs/no-agent.ts";
import { JobIdError, parseJobRef } from "../../../lib/jobs/job-id.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { JobInfo } from "../../../lib/agent/protocol/messages.ts";
import { loadCommandConfig } from "../../shared/child/spawn-spec.ts";
import { heartbeatPeriod, lineLimitFlags } from "./limits.ts";
import { wantsRemote } from "../../shared/socket-flag.ts";
import { announceRemoteEnv } from "../../shared/remote-env-plan.ts";

/** Bytes asked for per read: large enough to stream fast, small enough for one frame. */
const READ_BYTES = 1024 * 1024;

/** The command function of `collect --job` and `collect --tty` (loaded from cli/commands/collect/impl.ts). */
export async function jobCollectAction(this: CorralContext, flags: CollectFlags, ...argv: string[]): Promise<void> {
  if (flags.job !== undefined) {
    if (argv.length > 0 || flags.tty) throw new UsageError("--job reads a job's output: give no command (and no --tty) with it");
    try {
      parseJobRef(flags.job);
    } catch (error) {
      if (error instanceof JobIdError) throw new UsageError(`--job: ${error.message}`);
      throw error;
    }
    const tailLines = flags.tailLines;
    if (tailLines !== undefined && flags.from !== undefined) throw new UsageError("--from and --tail-lines both say where to start; give one");
    if (flags.headLines !== undefined) throw new UsageError("--head-lines goes with a command; with --job use --tail-lines N or --from OFFSET");
    if (flags.live || flags.heartbeat !== undefined || flags.group !== undefined) {
      throw new UsageError("--live, --heartbeat and --group go with a command (corral collect --live -- CMD); --job --follow streams a job's output already");
    }
    const job = flags.job;
    const fromOffset = flags.from ?? 0;
    const facts = checkFactsTarget(flags.facts, false);
    const wanted = facts === undefined || flags.facts === undefined ? undefined : { target: facts, shown: flags.facts };
    const read = async (client: AgentClient) => {
      const from = tailLines !== undefined
        ? await (await import("./tail-lines.ts")).offsetOfLastLines(client, job, tailLines, (at) => {
          this.process.stderr.write(`corral: ${job}: fewer than ${tailLines} lines are still kept (no spill file); starting at the first whole line, offset ${at}\n`);
        })
        : fromOffset;
      await readJob(this, client, job, from, flags.follow, wanted);
    };
    await withAgent(this, flags, read, {
      start: false,
      whenAbsent: () => noAgent(this),
    });
    return;
  }
  if (flags.from !== undefined || flags.follow) throw new UsageError("--from and --follow go with --job ID");
  await captureOnTerminal(this, flags, argv);
}

/** A checked `--facts` and its value as given (for messages). */
interface FactsWanted {
  readonly target: FactsTarget;
  readonly shown: string;
}

async function readJob(ctx: CorralContext, client: AgentClient, id: string, from: number, follow: boolean, facts?: FactsWanted): Promise<void> {
  const { stdout, stderr } = ctx.process;
  let offset = from;
  let job: JobInfo | undefined;
  let target = id;
  let pending: Uint8Array[] = [];
  client.onBytes = (bytes) => pending.push(bytes);
  for (;;) {
    const reply = await client.call({ op: "job-read", job: target, from: offset, maxBytes: READ_BYTES, wait: follow, raw: true });
    job = reply.job;
    target = String(job.number); // %+ may name another job later; keep reading this one
    const read = reply.read;
    if (read.kind === "data") {
      const chunks = read.base64 === undefined ? pending : [Buffer.from(read.base64, "base64")];
      pending = [];
      await writeAll(stdout, chunks);
      offset = read.nextOffset;
    } else if (read.kind === "lost") {
      const where = read.spill === null ? "the job has no spill file" : `its spill file ${read.spill} is incomplete`;
      stderr.write(`corral: ${job.id}: bytes ${read.offset}..${read.retainedFrom} are lost (no longer in memory; ${where}); going on from ${read.retainedFrom}\n`);
      offset = read.retainedFrom;
    } else if (read.kind === "eof" || !follow) {
      break;
    }
  }
  if (follow || job.state === "done") {
    ctx.process.exitCode = follow ? job.status ?? 125 : 0;
  } else {
    stderr.write(`corral: ${job.id} is ${job.state}; read up to offset ${offset} (--from ${offset} goes on from here)\n`);
  }
  if (facts === undefined) return;
  // After the output: `--facts -` is the last line on stdout, as with collect.
  if (job.exit !== null) await writeFacts(ctx, facts.target, facts.shown, job.exit);
  else stderr.write(`corral: --facts ${facts.shown}: not written, ${job.id} has not ended; --follow waits for its end\n`);
}

async function captureOnTerminal(ctx: CorralContext, flags: CollectFlags, argv: readonly string[]): Promise<void> {
  const config = await loadCommandConfig(ctx);
  const headBytes = flags.headBytes ?? config.headBytes;
  const maxBytes = flags.maxBytes ?? config.maxBytes;
  const lines = lineLimitFlags(flags);
  if (flags.merge) throw new UsageError("--merge does not apply with --tty: a terminal's output is one stream already");
  const remote = wantsRemote(ctx, flags);
  const { request, dropped, explain, quiet } = await prepareJob(ctx, flags, argv, flags.tty || !remote, remote);
  if (flags.explain) for (const line of explain) ctx.process.stderr.write(`corral: explain: ${line}\n`);
  announceWithheld(ctx, dropped, quiet);
  const { stdout, stderr } = ctx.process;
  const heartbeatMs = heartbeatPeriod(flags.heartbeat, config, ctx.process.env);
  if (flags.group === "") throw new UsageError("--group needs a title, e.g. --group tests");
  // With --live, stdout carries the command's output: --facts - would mix into it.
  const factsTarget = checkFactsTarget(flags.facts, flags.live);
  const stores = await openCollectStores({ headBytes, maxBytes, spill: flags.spill, merge: true });
  const store = stores.stdout;
  // As collect without --tty: markers where the output goes (stderr under --json alone).
  const markerStream = flags.json && !flags.live ? stderr : stdout;
  const group = flags.group === undefined ? null : groupMarkers(flags.group, ctx.process.env);
  if (group !== null) await writeAll(markerStream, [new TextEncoder().encode(group.start)]);
  const heartbeat = new Heartbeat([store], { everyMs: heartbeatMs, live: flags.live, status: stderr.isTTY === true && !flags.live, stderr });
  let client: AgentClient | undefined;
  let job: JobInfo | undefined;
  let forwarded: NodeJS.Signals | null = null;
  // Remote: the names withheld there, from its plan (locally: `dropped`).
  let withheld = credentialNames(dropped);
  try {
    client = await reachAgent(ctx, flags);
    if (remote) withheld = await announceRemoteEnv(ctx, client, flags, request, { explain: flags.explain, quiet, names: flags.json });
    // The agent keeps a bounded copy too; this one is what we print. Limits of ours apply.
    const c = client;
    const ended = new Promise<JobInfo | null>((resolve) => {
      c.onBytes = (bytes) => {
        if (flags.live && !stdout.write(bytes)) {
          // --live: a slow reader of our stdout slows the job, never our memory.
          c.pause();
          stdout.once("drain", () => c.resume());
        }
        if (!store.write(bytes)) {
          c.pause();
          store.onDrain(() => c.resume());
        }
      };
      c.onEvent = (event) => {
        if (event.event === "job-done") resolve(event.job);
      };
      c.onClose = () => resolve(null);
    });
    const { spill: _ours, ...rest } = request;
    // Cancelled (SIGINT, SIGTERM, SIGHUP): the command's tree goes, and we still report how it ended.
    const cancel = (signal: (typeof FORWARDED_SIGNALS)[number]) => {
      forwarded ??= signal;
      c.sendAttached({ op: "job-signal", signal });
    };
    const handlers = FORWARDED_SIGNALS.map((signal) => [signal, () => cancel(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    try {
      await c.call({ ...rest, attach: true, headBytes: 0, maxBytes: 0, ...(rest.tty ? terminalSize() : {}) });
      job = (await ended) ?? undefined;
    } finally {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    }
  } catch (error) {
    reportFailure(ctx, error);
  } finally {
    heartbeat.stop();
    client?.close();
    await closeCollectStores(stores, ctx.process.stderr);
  }
  if (job === undefined) {
    if (group !== null && group.end() !== "") await writeAll(markerStream, [new TextEncoder().encode(group.end())]);
    if (ctx.process.exitCode === undefined && client !== undefined && remote) {
      // A remote transport's loss is its own fact (255), never the command's exit.
      reportFailure(ctx, await client.call({ op: "jobs" }).then(() => new Error("the connection ended before the command did"), (error: unknown) => error));
    }
    if (ctx.process.exitCode === undefined) {
      ctx.process.stderr.write("corral: the agent closed the connection before the command ended\n");
      ctx.process.exitCode = 125;
    }
    return;
  }
  const exit = job.exit ?? { code: null, signal: null, timedOut: false, forced: false, durationMs: 0, outputComplete: false };
  const json = () => jsonReport(argv, exit, stores, lines, withheld);
  // --live: the output was seen already; the report goes to stderr.
  if (flags.live) {
    ctx.process.jsonElsewhere = flags.json;
    await writeAll(stderr, flags.json ? json() : liveSummary(stores));
  }
  else if (flags.json) await writeAll(stdout, json());
  else {
    const shown = plainParts(store, lines, "output");
    await writeAll(stdout, shown.stream);
    if (shown.note !== "") await writeAll(stderr, [new TextEncoder().encode(shown.note)]);
  }
  if (group !== null && group.end() !== "") await writeAll(markerStream, [new TextEncoder().encode(group.end())]);
  ctx.process.exitCode = job.status ?? 125;
  if (flags.facts !== undefined) {
    await reportFacts(ctx, flags, exit, factsTarget);
  }
  dieIfKilledBy(ctx, forwarded, exit);
}
