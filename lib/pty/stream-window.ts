// The recent past of a session's output as lines (stream-lines.ts), bounded,
// so a wait that starts after the output arrived (`--after N`) still finds
// it. A wait already running is handed every line as it is made, so it
// never misses one however fast they come; the bound only limits how far
// back a new wait can look, and a wait that asks for more is told so.
import { type StreamLine, StreamProjector } from "./stream-lines.ts";

/** Lines kept for waits that start later. */
export const WINDOW_MAX_LINES = 10_000;
/** Characters kept for waits that start later. */
export const WINDOW_MAX_CHARS = 1024 * 1024;

/** One session's output: its position and its recent lines. */
export class StreamWindow {
  #projector: StreamProjector;
  #lines: StreamLine[] = [];
  #head = 0;
  #chars = 0;
  #droppedUpTo = 0;
  #listeners = new Set<(line: StreamLine) => void>();

  constructor() {
    this.#projector = new StreamProjector((line) => this.#add(line));
  }

  /** Bytes the program has written so far (the output position). */
  get position(): number {
    return this.#projector.position;
  }

  /** Lines that ended at or before this position are no longer kept. */
  get droppedUpTo(): number {
    return this.#droppedUpTo;
  }

  feed(bytes: Uint8Array): void {
    this.#projector.feed(bytes);
  }

  /** The program exited: its last unfinished line counts as finished. */
  finish(): void {
    this.#projector.finish();
  }

  /** The unfinished line at the end of the output. */
  current(): StreamLine {
    return this.#projector.current();
  }

  /** Kept lines that end after `position`, oldest first. */
  linesAfter(position: number): StreamLine[] {
    const out: StreamLine[] = [];
    for (let i = this.#lines.length - 1; i >= this.#head; i--) {
      const line = this.#lines[i] as StreamLine;
      if (line.end <= position) break;
      out.push(line);
    }
    return out.reverse();
  }

  /** Called with each line as it is finished; returns the unsubscribe function. */
  onLine(listener: (line: StreamLine) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #add(line: StreamLine): void {
    this.#lines.push(line);
    this.#chars += line.text.length;
    while (this.#lines.length - this.#head > WINDOW_MAX_LINES || (this.#chars > WINDOW_MAX_CHARS && this.#lines.length - this.#head > 1)) {
      const old = this.#lines[this.#head++] as StreamLine;
      this.#chars -= old.text.length;
      this.#droppedUpTo = old.end;
    }
    if (this.#head > 4096 && this.#head * 2 > this.#lines.length) {
      this.#lines = this.#lines.slice(this.#head);
      this.#head = 0;
    }
    for (const listener of this.#listeners) listener(line);
  }
}
