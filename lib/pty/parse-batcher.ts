// Feeding xterm in batches: output that arrives while a batch is being parsed
// waits and goes in as the next batch, so under a flood each write is large
// (xterm's per-write cost is paid rarely) and text certain to scroll out of a
// batch is skipped (scroll-skip.ts). A quiet session's output is written on
// the next turn of the event loop, so reads and waits see it at once, and a
// small batch is parsed there and then: xterm would parse it on a timer
// (setTimeout 0, at least 1 ms in Node), which a screen read right after a
// send paid in full (issue 9: most of a lockstep send+screen round trip).
// A flood's batch is parsed one 64 KiB slice per event-loop turn, taking
// turns with the other sessions' floods (parse-turns.ts says why).
import { setImmediate } from "node:timers";
import type { Terminal } from "@xterm/headless";
import { type SkipContext, skipScrolledOut } from "./scroll-skip.ts";
import { ParseTurns, parseTurns } from "./parse-turns.ts";
import { GuardedWrite } from "./guarded-write.ts";

/** Largest single write handed to xterm: one flood slice, parsed in one turn (well under xterm's 12 ms). */
const SLICE_BYTES = 64 * 1024;
/**
 * Batches up to this size are parsed at once (well under a millisecond);
 * larger ones, a flood, go in slice by slice on their turns (parse-turns.ts),
 * so they grow while one is parsed.
 */
const PARSE_NOW_BYTES = 16 * 1024;

/** Writes PTY output into one xterm terminal, one batch in flight at a time. */
export class ParseBatcher {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #inflightBytes = 0;
  #scheduled = false;
  #previousByte = -1;
  #disposed = false;
  #held = false;

  constructor(
    private readonly term: Terminal,
    private readonly scrollback: number,
    /** Called when a batch is parsed, with how many received bytes it held. */
    private readonly onParsed: (bytes: number) => void,
    /** Where floods wait for their turn to parse: the agent's one queue unless a test gives its own. */
    private readonly turns: ParseTurns = parseTurns,
    /** Writes into the terminal, containing what xterm throws (guarded-write.ts). */
    private readonly writer: GuardedWrite = new GuardedWrite(term),
  ) {}

  /** Bytes received and not yet parsed (queued or in flight). */
  get unparsedBytes(): number {
    return this.#pendingBytes + this.#inflightBytes;
  }

  push(bytes: Uint8Array): void {
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (this.#inflightBytes === 0 && !this.#scheduled && !this.#held) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
  }

  /** Starts parsing what is queued now, unless a batch is in flight (it follows that one). */
  flush(): void {
    if (this.#disposed || this.#held || this.#inflightBytes > 0 || this.#pendingBytes === 0) return;
    const raw = this.#pending.length === 1 ? this.#pending[0] as Uint8Array : concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#inflightBytes = this.#pendingBytes;
    this.#pendingBytes = 0;
    const context = skipContext(this.term, this.scrollback, this.#previousByte);
    const batch = context === undefined ? raw : skipScrolledOut(raw, context);
    this.#previousByte = raw[raw.length - 1] ?? -1;
    const finish = () => {
      const parsed = this.#inflightBytes;
      this.#inflightBytes = 0;
      this.onParsed(parsed);
      this.flush();
    };
    if (batch.length <= PARSE_NOW_BYTES) {
      this.writer.write(batch, finish);
      return;
    }
    this.#sliceOnItsTurn(batch, 0, finish);
  }

  /**
   * A flood goes in one slice per turn of the event loop, taking turns with
   * the other sessions' floods (parse-turns.ts): each slice is parsed at once
   * when its turn comes, and the next is asked for once it is parsed.
   */
  #sliceOnItsTurn(batch: Uint8Array, at: number, finish: () => void): void {
    this.turns.take(() => {
      if (this.#disposed) return;
      const end = Math.min(at + SLICE_BYTES, batch.length);
      this.writer.write(batch.subarray(at, end), end < batch.length ? () => this.#sliceOnItsTurn(batch, end, finish) : finish);
    });
  }

  /** Keeps queued output back (a replay is writing into the terminal first). */
  hold(): void {
    this.#held = true;
  }

  /** Lets queued output go in after a hold. */
  release(): void {
    this.#held = false;
    this.flush();
  }

  dispose(): void {
    this.#disposed = true;
    this.#pending = [];
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

// deno-lint-ignore no-explicit-any -- xterm keeps its parser and scroll region on a private core
type XtermCore = any;

// The parser state and scroll region live on xterm's private core; when a
// future xterm moves them, skipping switches itself off (never guesses).
function skipContext(term: Terminal, scrollback: number, previousByte: number): SkipContext | undefined {
  const core = (term as unknown as { _core?: XtermCore })._core;
  const parser = core?._inputHandler?._parser;
  const table = parser?._transitions?.table;
  const buffer = core?.buffer;
  if (!(table instanceof Uint8Array) || typeof parser.currentState !== "number" || typeof buffer?.scrollTop !== "number") {
    return undefined;
  }
  return {
    table,
    state: parser.currentState,
    fullScrollRegion: buffer.scrollTop === 0 && buffer.scrollBottom === term.rows - 1 && !term.modes.reverseWraparoundMode,
    rows: term.rows,
    keepLines: term.rows + scrollback,
    previousByte,
  };
}
