// How `collect` prints what it kept: plain (head, one marker line, tail, each
// stream on corral's own fd) or one JSON object in the shape of the issue.
import type { BoundedStore } from "../../../lib/output/bounded-store.ts";
import { retainedTextPieces } from "../../../lib/output/utf8-text.ts";
import type { RetainedSnapshot } from "../../../lib/output/retained-window.ts";
import { type CutBy, showOutput, type ShownOutput } from "../../../lib/output/shown-output.ts";
import type { ExitFacts } from "../../../lib/core/exit-facts.ts";
import type { CollectStores } from "./stores.ts";

/** The line limits of one `collect` (--head-lines, --tail-lines); undefined: bytes only. */
export interface LineLimits {
  readonly headLines?: number | undefined;
  readonly tailLines?: number | undefined;
  /** Only one side was asked for (`tail -n` alone): the marker goes to stderr, not between the lines. */
  readonly only?: "head" | "tail";
}

/** One stream as `--json` reports it. */
export interface StreamReport {
  readonly bytes: number;
  readonly lines: number;
  readonly head: string;
  readonly tail: string;
  readonly elided: number;
  /** Line ends elided (whole lines when both cuts are on line boundaries). */
  readonly elidedLines: number;
  readonly headLines: number;
  readonly tailLines: number;
  /** Which limit ended the head and began the tail ("bytes" or "lines"); null when nothing was cut. */
  readonly cutBy: { readonly head: CutBy; readonly tail: CutBy };
  readonly truncated: boolean;
  readonly spill: string | null;
  /** Why the spill file is incomplete (a full disk), else null: the same on every backend. */
  readonly spillError: string | null;
  /**
   * How many U+FFFD in head and tail stand for bytes that were not UTF-8
   * (0: the text is the bytes, as they were); the bytes themselves are in
   * the spill file, or `collect` without --json.
   */
  readonly invalidUtf8: number;
}

/**
 * The `--json` object: argv, exit facts, `stdout`+`stderr` or `output`, and
 * `envDropped` (names of variables scrubbed from the command's environment)
 * when the caller knows them.
 */
export function jsonReport(
  argv: readonly string[],
  facts: ExitFacts,
  stores: CollectStores,
  lines: LineLimits = {},
  envDropped?: readonly string[],
): Uint8Array[] {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [encoder.encode(`{"argv":${JSON.stringify(argv)},"exit":${JSON.stringify(facts)}`)];
  const streams: [string, BoundedStore][] = stores.stderr === null ? [["output", stores.stdout]] : [["stdout", stores.stdout], ["stderr", stores.stderr]];
  for (const [name, store] of streams) {
    // The kept text is decoded, escaped and encoded a piece at a time: as
    // one string, a 64 MiB tail (--max-bytes 64MiB) took 420 MiB at peak.
    const { snapshot, report } = streamReport(store, lines);
    parts.push(encoder.encode(`,${JSON.stringify(name)}:{"head":"`));
    let part = "head";
    let replacements = 0;
    for (const piece of retainedTextPieces(snapshot, { final: true })) {
      if (piece.part !== part) parts.push(encoder.encode('","tail":"'));
      part = piece.part;
      replacements += countOf(piece.text, "\ufffd");
      parts.push(encoder.encode(JSON.stringify(piece.text).slice(1, -1)));
    }
    if (part === "head") parts.push(encoder.encode('","tail":"'));
    // A U+FFFD the command wrote itself (EF BF BD) is text, not a replacement.
    const invalidUtf8 = Math.max(0, replacements - replacementCharsIn(snapshot.head) - replacementCharsIn(snapshot.tail));
    parts.push(encoder.encode(`",${JSON.stringify({ ...report, invalidUtf8 }).slice(1)}`));
  }
  parts.push(encoder.encode(`${envDropped === undefined ? "" : `,"envDropped":${JSON.stringify(envDropped)}`}}\n`));
  return parts;
}

function countOf(text: string, char: string): number {
  let n = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) n++;
  return n;
}

/** U+FFFD encoded in the bytes (EF BF BD). */
function replacementCharsIn(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(0xef); at !== -1 && at + 2 < bytes.length; at = bytes.indexOf(0xef, at + 1)) {
    if (bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) n++;
  }
  return n;
}

/** What is shown of a store under these line limits (and the 4 KiB line snap). */
export function shownOf(store: BoundedStore, lines: LineLimits): ShownOutput {
  return showOutput(store.snapshot(), { headBytes: store.headBytes, tailBytes: store.tailBytes, headLines: lines.headLines, tailLines: lines.tailLines });
}

/** What `--json` shows of a stream: the snapshot its head and tail text come from, and the rest of its report. */
function streamReport(store: BoundedStore, lines: LineLimits): { snapshot: RetainedSnapshot; report: Omit<StreamReport, "head" | "tail" | "invalidUtf8"> } {
  const shown = shownOf(store, lines);
  const snapshot = { ...store.snapshot(), head: shown.head, tail: shown.tail, elided: shown.elided, truncated: shown.elided > 0 };
  return {
    snapshot,
    report: {
      bytes: shown.bytes,
      lines: shown.lines,
      elided: shown.elided,
      elidedLines: shown.elidedLines,
      headLines: shown.headLines,
      tailLines: shown.tailLines,
      cutBy: { head: shown.headCutBy, tail: shown.tailCutBy },
      truncated: shown.elided > 0,
      spill: store.spillPath,
      spillError: store.spillError?.message ?? null,
    },
  };
}

const NEWLINE = 0x0a;

const FLAG_OF: Record<"head" | "tail", Record<"bytes" | "lines", string>> = {
  head: { bytes: "--head-bytes", lines: "--head-lines" },
  tail: { bytes: "--max-bytes", lines: "--tail-lines" },
};

/** `80 lines, 1234 bytes elided (of 100 lines, 5678 bytes; head cut by --head-lines, tail by --max-bytes)`. */
export function elisionSummary(shown: ShownOutput): string {
  const cuts: string[] = [];
  if (shown.headCutBy !== null) cuts.push(`head cut by ${FLAG_OF.head[shown.headCutBy]}`);
  if (shown.tailCutBy !== null) cuts.push(`${cuts.length > 0 ? "tail by" : "tail cut by"} ${FLAG_OF.tail[shown.tailCutBy]}`);
  const of = `of ${shown.lines} lines, ${shown.bytes} bytes${cuts.length > 0 ? `; ${cuts.join(", ")}` : ""}`;
  return `${shown.elidedLines} lines, ${shown.elided} bytes elided (${of})`;
}

/**
 * A stream's plain rendering: head, then (only when bytes were elided) the
 * marker on a line of its own, then tail. Nothing elided means head + tail
 * is the stream, byte for byte.
 */
export function plainReport(store: BoundedStore, lines: LineLimits = {}): Uint8Array[] {
  return plainParts(store, lines).stream;
}

/**
 * The plain rendering split by where it goes: `stream` on the stream's own
 * fd; `note` (a `corral: ...` line, or empty) on stderr, when the line limits
 * asked for one side only and the marker must not count as a line of output.
 */
export function plainParts(store: BoundedStore, lines: LineLimits = {}, name = "stdout"): { stream: Uint8Array[]; note: string } {
  const shown = shownOf(store, lines);
  const { head, tail } = shown;
  if (shown.elided === 0) return { stream: [head, tail], note: "" };
  const where = store.spillPath === null
    ? "not kept"
    : store.spillError === null ? `full output in ${store.spillPath}` : `${store.spillPath} is incomplete`;
  if (lines.only !== undefined) {
    const [side, count, flag, other] = lines.only === "tail"
      ? ["last", shown.tailLines, "--tail-lines", "head"]
      : ["first", shown.headLines, "--head-lines", "tail"];
    const note = `corral: ${name}: the ${side} ${count} of ${shown.lines} lines shown (${flag} alone keeps no ${other}); ` +
      `${shown.elidedLines} lines, ${shown.elided} bytes elided; ${where}\n`;
    return { stream: [head, tail], note };
  }
  const lead = head.length > 0 && head[head.length - 1] !== NEWLINE ? "\n" : "";
  const marker = new TextEncoder().encode(`${lead}[corral: ${elisionSummary(shown)}; ${where}]\n`);
  return { stream: [head, marker, tail], note: "" };
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

/** After --live the output was seen already: one line per stream counting it. */
export function liveSummary(stores: CollectStores): Uint8Array[] {
  const named: [string, BoundedStore][] = stores.stderr === null
    ? [["output", stores.stdout]]
    : [["stdout", stores.stdout], ["stderr", stores.stderr]];
  return named.map(([name, store]) => {
    const where = store.spillPath === null ? "" : `; full output in ${store.spillPath}`;
    return new TextEncoder().encode(`[corral: ${name}: ${store.totalBytes} bytes, ${store.lines === 1 ? "1 line" : `${store.lines} lines`}${where}]\n`);
  });
}
