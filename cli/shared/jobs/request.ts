// Turning `run --bg/--tty` and `collect --tty` flags into a job-start
// request: the same environment scrubbing, working directory and grace as
// `run`, the output limits of `collect`. Flags that mean nothing for a job
// (--timeout, --leave-running) are refused rather than silently ignored.
import path from "node:path";
import process from "node:process";
import type { JobStartRequest } from "../../../lib/agent/protocol/messages.ts";
import type { CorralContext } from "../context.ts";
import { UsageError } from "../exit-status.ts";
import type { RunFlags } from "../child/flags.ts";
import type { RecordFlagValues } from "../record/flags.ts";
import { prepareRun } from "../child/spawn-spec.ts";
import { recordSpecOf } from "../record/spec.ts";
import type { RemoteEnvFlags } from "../../../lib/agent/client/remote/far-environment.ts";

/** The output-limit flags a job request reads. */
export interface JobLimitFlags {
  readonly name?: string;
  readonly maxBytes?: number;
  readonly headBytes?: number;
  readonly spill?: string;
}

/** A job-start as it goes out: to another machine with the env-shaping flags its corral applies there. */
export type OutgoingJobStart = JobStartRequest & { readonly envFlags?: RemoteEnvFlags };

/**
 * A checked request, plus the `--explain` lines and the scrubbed names (for
 * the note when it fails). Remote: the environment is built there, so the
 * names and the env lines come from its plan (cli/shared/remote-env-plan.ts).
 */
export interface PreparedJob {
  readonly request: OutgoingJobStart;
  readonly explain: readonly string[];
  readonly dropped: readonly string[];
  readonly quiet: boolean;
}

/** Checks every flag (UsageError, exit 2) and builds the request. */
export async function prepareJob(
  ctx: CorralContext,
  flags: RunFlags & JobLimitFlags,
  argv: readonly string[],
  tty: boolean,
  remote = false,
): Promise<PreparedJob> {
  if (flags.timeout !== undefined) {
    throw new UsageError("--timeout does not apply to a job (--bg, --tty); end it with corral reap --all, or use run --timeout without them");
  }
  if (flags.leaveRunning) throw new UsageError("--leave-running does not apply to a job (--bg, --tty): a job's tree is terminated when it ends");
  const { config, spec, explain, dropped, quiet } = await prepareRun(ctx, flags, argv, {});
  if (flags.name !== undefined && (!/^[A-Za-z][A-Za-z0-9._-]{0,63}$/.test(flags.name))) {
    throw new UsageError("--name must start with a letter and hold 1-64 letters, digits, '.', '_' or '-'");
  }
  if (flags.spill === "") throw new UsageError("--spill needs a file path, e.g. --spill build.log");
  const record = "record" in flags ? recordSpecOf(flags as RunFlags & JobLimitFlags & RecordFlagValues, !remote) : undefined;
  if (record !== undefined && !tty) throw new UsageError("--record goes with --tty: it records a terminal (corral run --tty --record out.cast -- CMD)");
  const request: OutgoingJobStart = {
    op: "job-start",
    argv: spec.argv,
    tty,
    // Remote: only what was set here travels, with the flags that shape the rest; the far side
    // builds the environment from its own, by the same rules (remote/far-environment.ts), and its home.
    ...(remote
      ? {
        ...(flags.cwd === undefined ? {} : { cwd: flags.cwd }),
        env: Object.fromEntries((flags.env ?? []).map(({ name, value }) => [name, value])),
        envFlags: { clear: flags.clearEnv, keep: flags.keepEnv ?? [], ...(flags.scrub === undefined ? {} : { scrub: flags.scrub }) },
      }
      // The agent runs in a directory of its own: a relative --cwd is the caller's.
      : { cwd: path.resolve(ctx.process.cwd ?? process.cwd(), spec.cwd ?? "."), env: spec.env }),
    headBytes: flags.headBytes ?? config.headBytes,
    maxBytes: flags.maxBytes ?? config.maxBytes,
    graceMs: spec.graceMs,
    ...(flags.name === undefined ? {} : { name: flags.name }),
    // Remote: a job's spill is written there; a relative path is resolved there (remote/far-paths.ts).
    ...(flags.spill === undefined ? {} : { spill: remote ? flags.spill : path.resolve(flags.spill) }),
    ...(record === undefined ? {} : { record }),
  };
  if (remote) return { request, explain: explain.filter((line) => !line.startsWith("env: ")), dropped: [], quiet };
  return { request, explain, dropped, quiet };
}
