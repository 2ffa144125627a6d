// Every write of a program's output into xterm: parsed before the write
// returns, and never allowed to end the agent. xterm has thrown on valid
// output (erase-above.ts), and a throw inside its parse leaves its write
// queue holding that write, retried and thrown again on every later one.
// xterm parses in its WriteBuffer's _innerWrite, called from write() or, for
// a long parse it splits, from its own timer, where nothing of corral's is on
// the stack: so that method is wrapped on the terminal's instance. A throw
// is caught there, xterm's queue and parser state are cleared, the writes it
// dropped count as done, and the owner hears of it (the screen may differ
// from the program's until it redraws). Used by the batcher (live output)
// and by the replay that rebuilds a dropped emulator (screen-history.ts),
// which would meet the same bytes again.
import type { Terminal } from "@xterm/headless";

// deno-lint-ignore no-explicit-any -- xterm keeps its write queue and parser on a private core
type XtermCore = any;

/** Writes into one terminal; `onFault` hears what xterm threw. */
export class GuardedWrite {
  readonly #parseNextWriteNow: () => boolean;

  constructor(
    private readonly term: Terminal,
    private readonly onFault: (error: unknown) => void = () => {},
  ) {
    this.#parseNextWriteNow = parseNowHook(term);
    guardParse(term, (error) => this.onFault(error));
  }

  /**
   * Hands `bytes` to xterm; `done` once they are parsed (or dropped by a
   * fault). `now`: parsed before this returns; else on xterm's timer, as
   * xterm itself schedules it (a replay).
   */
  write(bytes: Uint8Array, done: () => void, now = true): void {
    // Once: a callback xterm ran before a throw is not run again below.
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      done();
    };
    if (now) this.#parseNextWriteNow();
    try {
      this.term.write(bytes, once);
    } catch (error) {
      // Only where guardParse found no _innerWrite to wrap.
      settleAfterFault(this.term, error, this.onFault);
      once();
    }
  }
}

/** Wraps the terminal's WriteBuffer._innerWrite so a throw in its parse is contained (the file's comment). */
function guardParse(term: Terminal, onFault: (error: unknown) => void): void {
  const writeBuffer = (term as unknown as { _core?: XtermCore })._core?._writeBuffer;
  const inner = writeBuffer?._innerWrite;
  if (typeof inner !== "function" || writeBuffer._corralGuarded === true) return;
  writeBuffer._corralGuarded = true;
  writeBuffer._innerWrite = (...args: unknown[]) => {
    try {
      return inner.apply(writeBuffer, args);
    } catch (error) {
      settleAfterFault(term, error, onFault);
      return undefined;
    }
  };
}

/**
 * After a throw in xterm's parse: the owner hears of it, then every write
 * xterm dropped is done (the throw may come from a write queued from
 * another's callback), so nothing waits for a callback that never comes.
 */
function settleAfterFault(term: Terminal, error: unknown, onFault: (error: unknown) => void): void {
  const dropped = clearWriteQueue(term);
  onFault(error);
  for (const callback of dropped) callback?.();
}

/**
 * Makes xterm parse the next write before `write` returns, the way it treats
 * the first write after a keystroke (WriteBuffer.handleUserInput: an echo
 * shows without a timer's delay). Only when xterm's own queue is empty: a
 * write made from a write callback is already parsed in the running loop.
 * Returns false (timer path) when this xterm keeps its write queue elsewhere.
 */
function parseNowHook(term: Terminal): () => boolean {
  const writeBuffer = (term as unknown as { _core?: XtermCore })._core?._writeBuffer;
  if (typeof writeBuffer?.handleUserInput !== "function" || !Array.isArray(writeBuffer._writeBuffer)) return () => false;
  return () => {
    if (writeBuffer._writeBuffer.length !== 0) return false;
    writeBuffer.handleUserInput();
    return true;
  };
}

/**
 * After a throw in xterm's parse: its write queue (WriteBuffer) forgets the
 * writes not done (the one that threw and any queued behind it), and its
 * parser starts again from the ground state. Returns the callbacks of the
 * writes forgotten; none where this xterm keeps its queue elsewhere.
 */
function clearWriteQueue(term: Terminal): (() => void)[] {
  const core = (term as unknown as { _core?: XtermCore })._core;
  const writeBuffer = core?._writeBuffer;
  let dropped: (() => void)[] = [];
  if (Array.isArray(writeBuffer?._writeBuffer) && Array.isArray(writeBuffer._callbacks) && typeof writeBuffer._bufferOffset === "number") {
    dropped = writeBuffer._callbacks.slice(writeBuffer._bufferOffset);
    writeBuffer._writeBuffer.length = 0;
    writeBuffer._callbacks.length = 0;
    writeBuffer._bufferOffset = 0;
    writeBuffer._pendingData = 0;
  }
  const parser = core?._inputHandler?._parser;
  if (typeof parser?.reset === "function") parser.reset();
  return dropped;
}
