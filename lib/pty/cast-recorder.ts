// A terminal session as an asciicast v2 file (the format `asciinema rec`
// writes and `asciinema play`/`cat` read): a JSON header line, then one JSON
// array per event, `[seconds, code, data]` with code "o" (output), "i"
// (input), "r" (resize, "COLSxROWS") or "m" (marker). Bounded by a size: the
// last event that fits is followed by a marker saying why the recording
// stopped, and the file never passes the bound.
// Format: https://docs.asciinema.org/manual/asciicast/v2/
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";
import { CastFile } from "./cast-file.ts";
import type { RecordingSpec } from "../core/recording-spec.ts";

/** Room kept below the bound for the final marker event. */
const MARKER_ROOM = 200;
export { MIN_RECORD_BYTES, type RecordingSpec } from "../core/recording-spec.ts";

/** The header's facts. */
export interface CastHeader {
  readonly cols: number;
  readonly rows: number;
  readonly term: string;
  /** The command as a person would type it: the recording's title. */
  readonly title: string;
}

/** How a recording is going (`pty screen --json`, `pty list --json`). */
export interface RecordingStatus {
  readonly path: string;
  /** Bytes of the file so far (queued or written). */
  readonly bytes: number;
  readonly maxBytes: number | null;
  readonly input: boolean;
  /** Why it stopped early ("max", "backlog", "error: ..."), or null while it runs or after a normal end. */
  readonly stopped: string | null;
  readonly active: boolean;
  /** The file is closed with everything in it: safe to read or play. */
  readonly complete: boolean;
}

/** One recording in progress. */
export class CastRecorder {
  readonly spec: RecordingSpec;
  #file: CastFile;
  #start = performance.now();
  #bytes = 0;
  #stopped: string | null = null;
  #ended = false;
  #outputText = new TextDecoder("utf-8");
  #inputText = new TextDecoder("utf-8");

  private constructor(file: CastFile, spec: RecordingSpec) {
    this.#file = file;
    this.spec = spec;
  }

  /** Creates the file; rejects (nothing recorded) when it cannot be made. `begin` writes the header. */
  static async create(spec: RecordingSpec): Promise<CastRecorder> {
    return new CastRecorder(await CastFile.create(spec.path), spec);
  }

  /** Writes the header; event times count from here. */
  begin(header: CastHeader): void {
    this.#start = performance.now();
    this.#line(JSON.stringify({
      version: 2,
      width: header.cols,
      height: header.rows,
      timestamp: Math.floor(Date.now() / 1000),
      env: { TERM: header.term },
      title: header.title,
    }));
  }

  get #active(): boolean {
    return !this.#ended && this.#stopped === null && this.#file.error === undefined;
  }

  get status(): RecordingStatus {
    const error = this.#file.error;
    return {
      path: this.spec.path,
      bytes: this.#bytes,
      maxBytes: this.spec.maxBytes ?? null,
      input: this.spec.input === true,
      stopped: error !== undefined ? `error: ${error.message}` : this.#stopped,
      active: this.#active,
      complete: this.#file.closed,
    };
  }

  /** Output of the program, as it arrived. */
  output(bytes: Uint8Array): void {
    if (!this.#active) return;
    const text = this.#outputText.decode(bytes, { stream: true });
    if (text !== "") this.#event("o", text);
  }

  /** Text already decoded (the redraw of a screen at the start). */
  outputText(text: string): void {
    if (this.#active && text !== "") this.#event("o", text);
  }

  /** What was typed; ignored unless the spec asks for input. */
  input(bytes: Uint8Array | string): void {
    if (this.spec.input !== true || !this.#active) return;
    const text = typeof bytes === "string" ? bytes : this.#inputText.decode(bytes, { stream: true });
    if (text !== "") this.#event("i", text);
  }

  resize(cols: number, rows: number): void {
    if (this.#active) this.#event("r", `${cols}x${rows}`);
  }

  /** Ends the recording (the session ended, or it was replaced); resolves once the file is closed. */
  async end(): Promise<void> {
    if (!this.#ended) {
      const rest = this.#outputText.decode();
      if (rest !== "") this.outputText(rest);
      this.#ended = true;
    }
    await this.#file.close();
  }

  #event(code: "o" | "i" | "r", data: string): void {
    const seconds = Math.round(performance.now() - this.#start) / 1000;
    const eventLine = (text: string) => `[${seconds.toFixed(3)}, "${code}", ${JSON.stringify(text)}]`;
    const line = eventLine(data);
    const max = this.spec.maxBytes;
    const room = max === undefined ? Infinity : max - MARKER_ROOM - this.#bytes - 1;
    if (Buffer.byteLength(line) > room) {
      // What fits of the last output goes in, so the file uses its room.
      const part = code === "o" ? fittingPart(data, room, eventLine) : undefined;
      if (part !== undefined) this.#line(eventLine(part));
      this.#stop(seconds, "max", `corral: recording stopped at --record-max ${max} bytes`);
      return;
    }
    if (!this.#line(line)) this.#stop(seconds, "backlog", "corral: recording stopped: the disk did not keep up");
  }

  #stop(seconds: number, why: string, label: string): void {
    this.#stopped = why;
    // The marker always fits: MARKER_ROOM was kept for it, and the queue bound is far above it.
    this.#line(`[${seconds.toFixed(3)}, "m", ${JSON.stringify(label)}]`, true);
    void this.#file.close();
  }

  #line(line: string, force = false): boolean {
    const text = `${line}\n`;
    if (!this.#file.write(text, force)) return false;
    this.#bytes += Buffer.byteLength(text);
    return true;
  }
}

/** The longest start of `data` whose event line fits in `room` bytes (never half a surrogate pair). */
function fittingPart(data: string, room: number, eventLine: (text: string) => string): string | undefined {
  let length = Math.min(data.length, Math.floor(room));
  while (length > 0) {
    const end = /[\ud800-\udbff]/.test(data[length - 1] ?? "") ? length - 1 : length;
    const size = Buffer.byteLength(eventLine(data.slice(0, end)));
    if (size <= room) return end > 0 ? data.slice(0, end) : undefined;
    // Escapes and multi-byte characters make lines longer than their text: shrink in proportion.
    length = Math.min(end - 1, Math.floor(end * room / size));
  }
  return undefined;
}
