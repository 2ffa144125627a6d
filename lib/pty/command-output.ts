// The output of one `pty exec` command as a script wants it: the terminal's
// line ends (CR LF, from the terminal's ONLCR) turned back into LF so the
// bytes are what the command wrote to a file, kept within bounds like
// `collect` (head and tail, lines and bytes, the whole of it byte-exact in a
// spill file), and shown as head, one marker line, tail.
import { BoundedStore } from "../output/bounded-store.ts";
import { showOutput } from "../output/shown-output.ts";

const CR = 0x0d;
const LF = 0x0a;

/** How much of the output is kept and shown. */
export interface OutputLimits {
  readonly headBytes: number;
  readonly maxBytes: number;
  readonly headLines?: number | undefined;
  readonly tailLines?: number | undefined;
  /** A file that gets the whole output, byte-exact (created or truncated). */
  readonly spill?: string | undefined;
}

/** What is shown of the output, and its accounting. */
export interface ShownCommandOutput {
  readonly text: string;
  readonly bytes: number;
  readonly lines: number;
  readonly truncated: boolean;
  readonly spill: string | null;
}

/** Collects a command's output between its output mark and its finish mark. */
export class CommandOutput {
  readonly #store: BoundedStore;
  readonly #limits: OutputLimits;
  /** A CR at the end of the last chunk: it may start a CR LF. */
  #pendingCr = false;
  /** fish writes its title and terminal modes after the output mark: dropped until the first text. */
  #skipLeadingControls: boolean;

  private constructor(store: BoundedStore, limits: OutputLimits, skipLeadingControls: boolean) {
    this.#store = store;
    this.#limits = limits;
    this.#skipLeadingControls = skipLeadingControls;
  }

  /** Opens the store; a spill file that cannot be made rejects (SpillError). */
  static async open(limits: OutputLimits, skipLeadingControls: boolean): Promise<CommandOutput> {
    const store = await BoundedStore.open({ headBytes: limits.headBytes, tailBytes: limits.maxBytes, spillPath: limits.spill });
    return new CommandOutput(store, limits, skipLeadingControls);
  }

  write(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.#skipLeadingControls) {
      const start = firstText(bytes);
      if (start === -1) return;
      this.#skipLeadingControls = false;
      bytes = bytes.subarray(start);
    }
    const out = new Uint8Array(bytes.length + 1);
    let n = 0;
    if (this.#pendingCr && bytes[0] !== LF) out[n++] = CR;
    this.#pendingCr = false;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      if (byte !== CR) {
        out[n++] = byte;
        continue;
      }
      if (i + 1 === bytes.length) this.#pendingCr = true;
      else if (bytes[i + 1] !== LF) out[n++] = CR;
    }
    if (n > 0) this.#store.write(out.subarray(0, n));
  }

  /** Ends the output (a last lone CR is kept) and shows it; the spill file is complete when this resolves. */
  async finish(): Promise<ShownCommandOutput> {
    if (this.#pendingCr) this.#store.write(new Uint8Array([CR]));
    this.#pendingCr = false;
    await this.#store.close();
    const store = this.#store;
    const shown = showOutput(store.snapshot(), { tailBytes: store.tailBytes, headLines: this.#limits.headLines, tailLines: this.#limits.tailLines });
    const decoder = new TextDecoder();
    let text = decoder.decode(shown.head) + decoder.decode(shown.tail);
    if (shown.elided > 0) {
      const where = store.spillPath === null ? "not kept" : store.spillError === null ? `full output in ${store.spillPath}` : `${store.spillPath} is incomplete`;
      const lead = shown.head.length > 0 && shown.head[shown.head.length - 1] !== LF ? "\n" : "";
      const marker = `${lead}[corral: ${shown.elidedLines} lines, ${shown.elided} bytes elided (of ${shown.lines} lines, ${shown.bytes} bytes); ${where}]\n`;
      text = decoder.decode(shown.head) + marker + decoder.decode(shown.tail);
    }
    return { text, bytes: shown.bytes, lines: shown.lines, truncated: shown.elided > 0, spill: store.spillPath };
  }

  /** Gives up the output (the command did not finish); the spill file keeps what came. */
  async abandon(): Promise<void> {
    await this.#store.close();
  }
}

// Index of the first byte that is neither CR nor part of an escape sequence; -1 when none.
function firstText(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    if (byte === CR) {
      i++;
      continue;
    }
    if (byte !== 0x1b) return i;
    const next = bytes[i + 1];
    if (next === 0x5b) {
      // CSI: parameters, then a final byte 0x40-0x7e.
      i += 2;
      while (i < bytes.length && !((bytes[i] as number) >= 0x40 && (bytes[i] as number) <= 0x7e)) i++;
      i++;
    } else if (next === 0x5d) {
      // OSC: up to BEL or ESC \.
      i += 2;
      while (i < bytes.length && bytes[i] !== 0x07 && !(bytes[i] === 0x1b && bytes[i + 1] === 0x5c)) i++;
      i += bytes[i] === 0x07 ? 1 : 2;
    } else if (next === 0x28 || next === 0x29) {
      i += 3; // designate a character set: ESC ( B
    } else {
      i += 2;
    }
  }
  return -1;
}
