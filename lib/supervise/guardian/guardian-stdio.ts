// How a run's stdio choices reach its guardian: the launch (which streams
// the guardian keeps itself: a spill file, a capture of head, tail and
// counts) and where each stream's output goes on corral's side (a sink, or
// a Readable). Kept apart from pipe-tree.ts, which maps the guardian's
// events onto the handle.
import { PassThrough, type Readable } from "node:stream";
import type { ByteSink, ResolvedSpawn, StdioChoice, StreamCapture } from "../spec.ts";
import type { Guardian } from "./client.ts";
import type { GuardianLaunch, KeptLimits, StdioChoice as GuardianStdio } from "./protocol.ts";

/** The guardian's launch for a pipe tree (`run`, `collect`): its streams, captures and spills as the spec asks. */
export function pipeLaunch(resolved: ResolvedSpawn): GuardianLaunch {
  const { spec } = resolved;
  const outCapture = captureOf(spec.stdout);
  const errCapture = captureOf(spec.stderr);
  return {
    ...(outCapture?.spill ? { spillStdout: outCapture.spill } : {}),
    ...(errCapture?.spill ? { spillStderr: errCapture.spill } : {}),
    // Not --spill-direct: with the file as the child's own stdout, a full disk
    // would fail the child's writes (issue 15). Through a pipe the guardian
    // splices into the file and, when the file cannot grow, keeps the tail.
    // Each stream's own head and tail, as its capture says.
    ...(outCapture ? { keptStdout: keptLimits(outCapture) } : {}),
    ...(errCapture ? { keptStderr: keptLimits(errCapture) } : {}),
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
}
/**
 * The capture a stdio choice asks the guardian to make (spec.ts
 * StdioChoice's `capture`): the guardian keeps the stream (native/capture.c),
 * frames only the head to us, and hands the tail and the counts to the
 * capture's result at EOF; with `spill`, it writes that file itself too.
 */
export function captureOf(choice: StdioChoice | "stdout" | undefined): StreamCapture | null {
  return typeof choice === "object" ? choice.capture ?? null : null;
}

/**
 * A capture's limits as the guardian takes them. A line limit at or above
 * its byte limit can never bind (each line is a byte at least), so it is
 * left out: the guardian's flags stay within their range.
 */
function keptLimits(capture: StreamCapture): KeptLimits {
  const { headBytes, tailBytes, headLines, tailLines } = capture;
  return {
    headBytes,
    tailBytes,
    ...(headLines !== null && headLines < headBytes ? { headLines } : {}),
    ...(tailLines !== null && tailLines < tailBytes ? { tailLines } : {}),
  };
}

export function guardianStdio(choice: StdioChoice | "inherit" | "pipe" | "ignore" | undefined): GuardianStdio {
  if (choice === undefined || choice === "inherit") return "inherit";
  return choice === "ignore" ? "null" : "pipe";
}

/** The end of a spilled or captured stream as the guardian reported it. */
export interface SpilledPicture {
  readonly tail: Uint8Array;
  readonly total: number;
  readonly error: { code: string; message: string } | null;
  readonly counted: { lineFeeds: number; beforeTail: number } | undefined;
}

/** Output of one stream: into the caller's sink (with backpressure), or a Readable. */
export class StreamRoute {
  readonly readable: Readable | null;
  readonly #sink: ByteSink | null;
  eof = false;
  /** The guardian itself reported EOF (not just a closed connection): only then is the output complete. */
  eofReported = false;
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

