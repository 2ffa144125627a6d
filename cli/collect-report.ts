// How `collect` prints what it kept: plain (head, one marker line, tail, each
// stream on corral's own fd) or one JSON object in the shape of the issue.
import type { BoundedStore } from "../lib/output/bounded-store.ts";
import { retainedText } from "../lib/output/utf8-text.ts";
import type { ExitFacts } from "../lib/spawn/exit-facts.ts";
import type { CollectStores } from "./collect-stores.ts";

/** One stream as `--json` reports it. */
export interface StreamReport {
  readonly bytes: number;
  readonly head: string;
  readonly tail: string;
  readonly elided: number;
  readonly truncated: boolean;
  readonly spill: string | null;
  /** Why the spill file is incomplete (a full disk), else null: the same on every backend. */
  readonly spillError: string | null;
}

/**
 * The `--json` object: argv, exit facts, `stdout`+`stderr` or `output`, and
 * `envDropped` (names of variables scrubbed from the command's environment)
 * when the caller knows them.
 */
export function jsonReport(argv: readonly string[], facts: ExitFacts, stores: CollectStores, envDropped?: readonly string[]): string {
  const streams = stores.stderr === null
    ? { output: streamReport(stores.stdout) }
    : { stdout: streamReport(stores.stdout), stderr: streamReport(stores.stderr) };
  return JSON.stringify({ argv, exit: facts, ...streams, ...(envDropped === undefined ? {} : { envDropped }) }) + "\n";
}

function streamReport(store: BoundedStore): StreamReport {
  const snapshot = store.snapshot();
  const { head, tail } = retainedText(snapshot, { final: true });
  return {
    bytes: snapshot.bytes,
    head,
    tail,
    elided: snapshot.elided,
    truncated: snapshot.truncated,
    spill: store.spillPath,
    spillError: store.spillError?.message ?? null,
  };
}

const NEWLINE = 0x0a;

/**
 * A stream's plain rendering: head, then (only when bytes were elided) the
 * marker on a line of its own, then tail. Nothing elided means head + tail
 * is the stream, byte for byte.
 */
export function plainReport(store: BoundedStore): Uint8Array[] {
  const { head, tail, elided } = store.snapshot();
  if (elided === 0) return [head, tail];
  const where = store.spillPath === null
    ? "not kept"
    : store.spillError === null ? `full output in ${store.spillPath}` : `${store.spillPath} is incomplete`;
  const lead = head.length > 0 && head[head.length - 1] !== NEWLINE ? "\n" : "";
  const marker = new TextEncoder().encode(`${lead}[corral: ${elided} bytes elided; ${where}]\n`);
  return [head, marker, tail];
}

/**
 * Writes chunks and resolves once the stream took them (so exit loses
 * nothing). A reader that went away (EPIPE, as with `| head`) ends the
 * writing quietly, as it would for any filter; the status stays the child's.
 */
export function writeAll(stream: NodeJS.WriteStream, chunks: readonly Uint8Array[]): Promise<void> {
  const nonEmpty = chunks.filter((c) => c.length > 0);
  if (nonEmpty.length === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const onError = () => {
      stream.destroy();
      resolve();
    };
    // `on`, not `once`: Bun emits an error for each failed write.
    stream.on("error", onError);
    for (const chunk of nonEmpty.slice(0, -1)) stream.write(chunk);
    stream.write(nonEmpty[nonEmpty.length - 1] as Uint8Array, (error) => {
      if (error) return onError();
      stream.off("error", onError);
      resolve();
    });
  });
}
