// `corral collect` itself: check limits, open the stores, run (teeing with
// --live, a heartbeat while it runs, inside --group markers), print.
import type { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { TeeSink } from "../../../lib/output/tee-sink.ts";
import type { CollectFlags } from "./flags.ts";
import { jsonReport, liveSummary, plainParts, writeAll } from "./report.ts";
import { closeCollectStores, type CollectStores, openCollectStores, type TeeDescriptors } from "./stores.ts";
import { heartbeatPeriod, lineLimitFlags } from "./limits.ts";
import { Heartbeat } from "./heartbeat.ts";
import { groupMarkers } from "./ci-group.ts";
import type { CorralContext } from "../../shared/context.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { checkFactsTarget, reportFacts } from "../../shared/facts-output.ts";
import { loadCommandConfig, prepareRun } from "../../shared/child/spawn-spec.ts";
import { runSupervised } from "../../shared/child/supervise.ts";
import { dieIfKilledBy } from "../../shared/signal-death.ts";
import { credentialNames } from "../../shared/env-dropped-note.ts";
import { decidePipeCapture } from "../../../lib/supervise/decide.ts";

const encode = (text: string) => new TextEncoder().encode(text);

import { wantsRemote } from "../../shared/socket-flag.ts";

/** The command function of `corral collect` (loaded lazily by cli/commands/collect/command.ts). */
export async function collectAction(this: CorralContext, flags: CollectFlags, ...argv: string[]): Promise<void> {
  // --host/--via: the command runs there, as a job; its bounded output comes back here.
  if (flags.job !== undefined || flags.tty || wantsRemote(this, flags)) {
    return (await import("./job.ts")).jobCollectAction.call(this, flags, ...argv);
  }
  if (flags.from !== undefined || flags.follow || flags.socket !== undefined) {
    throw new UsageError("--from, --follow and --socket go with --job ID (or --socket with --tty), e.g. corral collect --job %1 --follow");
  }
  const { env, stdout, stderr } = this.process;
  const config = await loadCommandConfig(this);
  const maxBytes = flags.maxBytes ?? config.maxBytes;
  const headBytes = flags.headBytes ?? config.headBytes;
  const lines = lineLimitFlags(flags);
  const heartbeatMs = heartbeatPeriod(flags.heartbeat, config, env);
  if (flags.spill === "") throw new UsageError("--spill needs a file path, e.g. --spill build.log");
  if (flags.group === "") throw new UsageError("--group needs a title, e.g. --group tests");
  // With --live, stdout carries the command's output: --facts - would mix into it.
  const factsTarget = checkFactsTarget(flags.facts, flags.live);
  // Check every flag before the spill files are created.
  const checked = await prepareRun(this, flags, argv, {}, config, "collect");
  // Who keeps the output, the guardian or JavaScript: the one decision (lib/supervise/decide.ts).
  const capture = decidePipeCapture({ guardian: config.guardian, env }, {
    live: flags.live,
    spill: flags.spill !== undefined,
    handed: flags.live ? teeDescriptors(stdout, stderr, flags.merge) : null,
  });
  const { tee, jsTee, externalSpill: external, nativeCapture } = capture;
  const statusLine = stderr.isTTY === true && !flags.live;
  const stores = await openCollectStores({ headBytes, maxBytes, headLines: lines.headLines, tailLines: lines.tailLines, spill: flags.spill, merge: flags.merge, external, nativeCapture, tee });
  // Markers go where the output goes; with --json (not --live) stdout is one JSON object, so stderr.
  const markerStream = flags.json && !flags.live ? stderr : stdout;
  const group = flags.group === undefined ? null : groupMarkers(flags.group, env);
  if (group !== null) await writeAll(markerStream, [encode(group.start)]);
  const outSink = jsTee ? new TeeSink(stores.stdout, stdout) : stores.stdout;
  const errSink = stores.stderr === null ? null : jsTee ? new TeeSink(stores.stderr, stderr) : stores.stderr;
  const prepared = {
    ...checked,
    explain: flags.explain ? [...checked.explain, `output: ${capture.why}`] : checked.explain,
    spec: {
      ...checked.spec,
      stdin: "inherit" as const,
      // Each stream's own capture (null: it streams through JavaScript), which the guardian makes instead.
      stdout: { sink: outSink, capture: stores.stdout.capture() },
      stderr: stores.stderr === null || errSink === null ? "stdout" as const : { sink: errSink, capture: stores.stderr.capture() },
    },
  };
  const heartbeat = new Heartbeat(storeList(stores), {
    everyMs: heartbeatMs,
    live: flags.live,
    status: statusLine,
    stderr,
  });
  let result;
  try {
    result = await runSupervised(this, prepared, flags.explain);
  } finally {
    heartbeat.stop();
  }
  await closeCollectStores(stores, stderr);
  const envDropped = credentialNames(checked.dropped);
  if (result !== null) {
    if (flags.live) {
      const report = flags.json ? jsonReport(argv, result.facts, stores, lines, envDropped) : liveSummary(stores);
      this.process.jsonElsewhere = flags.json;
      await writeAll(stderr, report);
    } else if (flags.json) {
      await writeAll(stdout, jsonReport(argv, result.facts, stores, lines, envDropped));
    } else {
      const out = plainParts(stores.stdout, lines, stores.stderr === null ? "output" : "stdout");
      await writeAll(stdout, out.stream);
      const err = stores.stderr === null ? null : plainParts(stores.stderr, lines, "stderr");
      if (err !== null) await writeAll(stderr, err.stream);
      const notes = out.note + (err?.note ?? "");
      if (notes !== "") await writeAll(stderr, [encode(notes)]);
    }
  }
  if (group !== null && group.end() !== "") await writeAll(markerStream, [encode(group.end())]);
  if (result === null) return;
  await reportFacts(this, flags, result.facts, factsTarget);
  dieIfKilledBy(this, result.forwarded, result.facts);
}

/** Our stdout's (and, unless merged, stderr's) descriptors, when both streams have one to hand down. */
function teeDescriptors(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, merge: boolean): TeeDescriptors | null {
  const fdOf = (stream: NodeJS.WriteStream) => {
    const fd = (stream as { fd?: unknown }).fd;
    return typeof fd === "number" && Number.isInteger(fd) && fd >= 0 ? fd : null;
  };
  const out = fdOf(stdout);
  const err = merge ? null : fdOf(stderr);
  if (out === null || (!merge && err === null)) return null;
  return { stdout: out, stderr: err };
}

function storeList(stores: CollectStores): BoundedStore[] {
  return stores.stderr === null ? [stores.stdout] : [stores.stdout, stores.stderr];
}
