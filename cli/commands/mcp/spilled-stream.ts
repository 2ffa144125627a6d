// A command's output that the agent wrote to a spill file (terminal_exec:
// the agent runs the command, this server only holds the file) read back
// as the head and tail a model is shown, plus the line feeds of the whole,
// so the answer is shaped and its cut counted exactly as `run`'s is
// (model-text.ts streamForModel) without holding the whole in memory.
import { open } from "node:fs/promises";
import type { RetainedStream } from "./model-text.ts";

const CHUNK = 1 << 20;
const LF = 0x0a;

/** The file's first and last `keep` bytes and its line feeds; null when it cannot be read. */
export async function spilledStream(file: string, keep: number): Promise<RetainedStream | null> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const headLength = Math.min(keep, size);
    const head = new Uint8Array(headLength);
    await handle.read(head, 0, headLength, 0);
    const tailLength = Math.min(keep, size);
    const tail = new Uint8Array(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let lineFeeds = 0;
    const chunk = new Uint8Array(CHUNK);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) if (chunk[i] === LF) lineFeeds += 1;
      at += bytesRead;
    }
    return { bytes: size, lineFeeds, head, tail };
  } finally {
    await handle.close();
  }
}
