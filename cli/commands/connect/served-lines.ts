// `corral connect` as the agent serves it for the native client: the
// client pushes its stdin, the agent answers each JSON line as one of the
// connection's own requests and writes the reply lines to the client's
// stdout, in the order the lines came. Through the JavaScript CLI each
// request crossed a relay process and its event loop; here the client is a
// few system calls and the agent does the rest in one turn. The lines are
// read and answered by the rules the JavaScript relay applies
// (connect-line.ts), so a script sees the same replies through both doors.
import type { CommandInput, CommandOutput, CommandRequests } from "../../../lib/agent/server/command-line-door.ts";
import { type LineCaller, prepareLine, type Json } from "./connect-line.ts";

/** Lines read ahead of their replies before reading waits (the agent answers in order anyway). */
const READ_AHEAD = 256;

const utf8 = new TextEncoder();

/** Serves the pushed stdin until it ends; the exit status (0: every line was answered). */
export async function serveLines(input: CommandInput, output: CommandOutput, requests: CommandRequests, caller: LineCaller): Promise<number> {
  const decoder = new TextDecoder("utf-8");
  const lines = new LineSplitter();
  let queue: Promise<void> = Promise.resolve();
  let unanswered = 0;
  const take = (line: string) => {
    if (line.trim() === "") return;
    const prepared = prepareLine(line, caller);
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
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) take(line);
    if (unanswered >= READ_AHEAD) await queue;
  }
  for (const line of lines.end(decoder.decode())) take(line);
  await queue;
  return 0;
}

/** Splits text into lines as node:readline does with crlfDelay Infinity: at \n, \r\n or a lone \r. */
export class LineSplitter {
  #carry = "";
  /** The last piece ended in \r: a \n starting the next one belongs to it. */
  #afterReturn = false;

  push(text: string): string[] {
    const out: string[] = [];
    let start = 0;
    if (this.#afterReturn && text.startsWith("\n")) start = 1;
    this.#afterReturn = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      out.push(this.#carry + text.slice(start, i));
      this.#carry = "";
      if (c === 0x0d) {
        if (i + 1 === text.length) this.#afterReturn = true;
        else if (text.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    this.#carry += text.slice(start);
    return out;
  }

  /** The rest of the text: its last line, when it did not end in a line break. */
  end(text: string): string[] {
    const out = this.push(text);
    if (this.#carry !== "") out.push(this.#carry);
    this.#carry = "";
    return out;
  }
}
