// The agent's side of an adopted connect's ledger (the layout and why:
// lib/agent/protocol/connect-ledger.ts). Stdin's bytes go in as they are
// read; a line's bytes go out once its reply is in the kernel. The client
// reads it only after the agent died, at any instruction, so every change
// is ordered to leave a state the client reads right: bytes before the end
// that covers them, the end before the start when both drop to zero, and
// `unknown` around a move of the bytes.
import { LEDGER_HEADER_BYTES, LEDGER_MAGIC, LedgerState, LedgerWord } from "../protocol/connect-ledger.ts";

type State = (typeof LedgerState)[keyof typeof LedgerState];

export class ConnectLedger {
  readonly #words: Uint32Array;
  readonly #held: Uint8Array;
  /** Where #held[0] is in stdin. */
  #base = 0;
  #start = 0;
  #end = 0;
  /** Once more came than it holds: it says `unknown` for the rest of the conversation. */
  #lost = false;
  #state: State = LedgerState.settled;

  constructor(memory: ArrayBuffer) {
    this.#words = new Uint32Array(memory, 0, LEDGER_HEADER_BYTES / 4);
    this.#held = new Uint8Array(memory, LEDGER_HEADER_BYTES);
    this.#words[LedgerWord.state] = LedgerState.settled;
    this.#words[LedgerWord.end] = 0;
    this.#words[LedgerWord.start] = 0;
    this.#words[LedgerWord.magic] = LEDGER_MAGIC;
  }

  /** Bytes held and not answered yet. */
  get held(): number {
    return this.#end - this.#start;
  }

  /** What it can hold. */
  get capacity(): number {
    return this.#held.length;
  }

  /** Stdin's next bytes, as read. */
  add(bytes: Uint8Array): void {
    if (this.#lost) return;
    if (this.#end + bytes.length > this.#held.length && this.#start > 0) this.#compact();
    if (this.#end + bytes.length > this.#held.length) {
      this.#lost = true;
      this.#words[LedgerWord.state] = LedgerState.unknown;
      return;
    }
    this.#held.set(bytes, this.#end);
    this.#end += bytes.length;
    this.#words[LedgerWord.end] = this.#end;
  }

  /** Everything of stdin before `offset` is answered. */
  answeredTo(offset: number): void {
    if (this.#lost) return;
    const at = Math.min(offset - this.#base, this.#end);
    if (at <= this.#start) return;
    if (at === this.#end) {
      // Both back to zero: the end first, so no moment shows old bytes as held.
      this.#base += at;
      this.#start = this.#end = 0;
      this.#words[LedgerWord.end] = 0;
      this.#words[LedgerWord.start] = 0;
      return;
    }
    this.#start = at;
    this.#words[LedgerWord.start] = at;
  }

  /** A reply is about to go to the kernel / went in part / went whole. */
  replyState(state: State): void {
    this.#state = state;
    if (!this.#lost) this.#words[LedgerWord.state] = state;
  }

  /** The held bytes moved to the front: `unknown` while they move. */
  #compact(): void {
    this.#words[LedgerWord.state] = LedgerState.unknown;
    this.#held.copyWithin(0, this.#start, this.#end);
    this.#base += this.#start;
    this.#end -= this.#start;
    this.#start = 0;
    this.#words[LedgerWord.start] = 0;
    this.#words[LedgerWord.end] = this.#end;
    this.#words[LedgerWord.state] = this.#state;
  }
}
