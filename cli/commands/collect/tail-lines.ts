// `collect --job ID --tail-lines N`: where a job's last N lines begin, found
// by reading backwards from its end in chunks (never the whole output), so
// a CI script can show the end of a long job's log without knowing offsets.
import { Buffer } from "node:buffer";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { startOfLastLines } from "../../../lib/output/shown-output.ts";

const CHUNK = 64 * 1024;
const LF = 0x0a;

/** The offset where the last `n` lines of job `id` begin; stops early where bytes are lost. */
export async function offsetOfLastLines(client: AgentClient, id: string, n: number, onShort: (from: number) => void): Promise<number> {
  const total = (await client.call({ op: "job-read", job: id, from: 0, maxBytes: 1 })).job.bytes;
  let start = total;
  let suffix = new Uint8Array(0);
  // n lines need n line feeds before them (a final LF ends the last line, not one more).
  while (start > 0) {
    const from = Math.max(0, start - CHUNK);
    const got = await readRange(client, id, from, start);
    if (typeof got === "number") {
      // Lost below `got` (no spill file): the last lines start no earlier than the oldest kept byte.
      const kept = got < start ? await readRange(client, id, got, start) : new Uint8Array(0);
      if (typeof kept !== "number") {
        suffix = Buffer.concat([kept, suffix]);
        start -= kept.length;
      }
      const at = startOfLastLines(suffix, n);
      if (at > 0 || start === 0) return start + at;
      // Fewer lines kept than asked for: begin on the first whole one, and say so.
      const firstLf = suffix.indexOf(LF);
      const begin = firstLf === -1 || firstLf + 1 >= suffix.length ? 0 : firstLf + 1;
      onShort(start + begin);
      return start + begin;
    }
    suffix = Buffer.concat([got, suffix]);
    start = from;
    if (feedsBeyondLast(suffix) >= n) break;
  }
  return start + startOfLastLines(suffix, n);
}

function feedsBeyondLast(bytes: Uint8Array): number {
  let count = 0;
  const end = bytes[bytes.length - 1] === LF ? bytes.length - 1 : bytes.length;
  for (let at = bytes.indexOf(LF); at !== -1 && at < end; at = bytes.indexOf(LF, at + 1)) count++;
  return count;
}

/** Bytes [from, to) of the job's output, or the offset where kept bytes resume when part of it is lost. */
async function readRange(client: AgentClient, id: string, from: number, to: number): Promise<Uint8Array | number> {
  const parts: Uint8Array[] = [];
  for (let at = from; at < to;) {
    const { read } = await client.call({ op: "job-read", job: id, from: at, maxBytes: to - at });
    if (read.kind === "lost") return read.retainedFrom;
    if (read.kind !== "data" || read.base64 === undefined) return to;
    parts.push(Buffer.from(read.base64, "base64"));
    at = read.nextOffset;
  }
  return Buffer.concat(parts);
}
