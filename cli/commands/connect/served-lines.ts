// `corral connect` as the agent serves it for the native client: the
// client pushes its stdin, the agent answers each JSON line as one of the
// connection's own requests and writes the reply lines to the client's
// stdout, in the order the lines came. Through the JavaScript CLI each
// request crossed a relay process and its event loop; here the client is a
// few system calls and the agent does the rest in one turn. The lines are
// read and answered by the rules the JavaScript relay applies
// (connect-line.ts), so a script sees the same replies through both doors.
// Where the agent took the client's stdin and stdout (adopted-stdio.ts), the
// same loop reads and writes them directly, and tells the ledger where each
// answered line ends, so the client can answer the rest if the agent dies.
import type { CommandInput, CommandOutput, CommandRequests, LineLedger } from "../../../lib/agent/server/command-line-door.ts";
import { type LineCaller, prepareLine, type Json } from "./connect-line.ts";

/** Lines read ahead of their replies before reading waits (the agent answers in order anyway). */
const READ_AHEAD = 256;

const utf8 = new TextEncoder();

/** Serves the pushed stdin until it ends; the exit status (0: every line was answered). */
export async function serveLines(input: CommandInput, output: CommandOutput, requests: CommandRequests, caller: LineCaller, ledger?: LineLedger): Promise<number> {
  const lines = new LineSplitter();
  let queue: Promise<void> = Promise.resolve();
  let unanswered = 0;
  const take = ({ text, end }: Line) => {
    if (text.trim() === "") return;
    const prepared = prepareLine(text, caller);
    ledger?.lineTaken(end);
    unanswered++;
    queue = queue.then(async () => {
      const reply: Json = "failure" in prepared ? prepared.failure : await requests.run(prepared.request, prepared.ref);
      unanswered--;
      if (!output.write(1, utf8.encode(`${JSON.stringify(reply)}\n`))) await output.drained();
    });
  };
  for (;;) {
    const chunk = await input.read();
    if (chunk === null) break;
    for (const line of lines.push(chunk)) take(line);
    if (unanswered >= READ_AHEAD) await queue;
  }
  for (const line of lines.end()) take(line);
  await queue;
  return 0;
}

/** A line of stdin: its text, and the offset in stdin just past its line end. */
export interface Line {
  readonly text: string;
  readonly end: number;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits stdin's bytes into lines as node:readline does with crlfDelay
 * Infinity: at \n, \r\n or a lone \r. Split as bytes, then each line decoded
 * (neither byte occurs inside a UTF-8 sequence), so each line's place in
 * stdin is known exactly.
 */
export class LineSplitter {
  /** BOMs kept: one starting stdin is dropped by #text alone, as a stream's decoder drops it. */
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  #carry: Uint8Array[] = [];
  /** Bytes taken so far. */
  #offset = 0;
  /** Where the line being read starts in stdin. */
  #lineStart = 0;
  /** The last piece ended in \r: a \n starting the next one belongs to it. */
  #afterReturn = false;

  push(bytes: Uint8Array): Line[] {
    const out: Line[] = [];
    const base = this.#offset;
    this.#offset += bytes.length;
    let start = 0;
    if (this.#afterReturn && bytes[0] === LF) {
      start = 1;
      this.#lineStart = base + 1;
    }
    this.#afterReturn = false;
    for (let i = start; i < bytes.length; i++) {
      const c = bytes[i];
      if (c !== LF && c !== CR) continue;
      const lineEnd = i;
      if (c === CR) {
        if (i + 1 === bytes.length) this.#afterReturn = true;
        else if (bytes[i + 1] === LF) i++;
      }
      out.push({ text: this.#text(bytes.subarray(start, lineEnd)), end: base + i + 1 });
      start = i + 1;
      this.#lineStart = base + start;
    }
    if (start < bytes.length) this.#carry.push(bytes.slice(start));
    return out;
  }

  /** The rest of stdin: its last line, when it did not end in a line break. */
  end(): Line[] {
    if (this.#carry.length === 0) return [];
    return [{ text: this.#text(new Uint8Array(0)), end: this.#offset }];
  }

  #text(tail: Uint8Array): string {
    const text = this.#joined(tail);
    return this.#lineStart === 0 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  #joined(tail: Uint8Array): string {
    if (this.#carry.length === 0) return this.#decoder.decode(tail);
    const parts = [...this.#carry, tail];
    this.#carry = [];
    const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      whole.set(part, at);
      at += part.length;
    }
    return this.#decoder.decode(whole);
  }
}
