// A /proc file read again and again through one open descriptor. procfs
// makes a file's text anew on every read from offset 0, so a kept
// descriptor answers as a fresh open does, for one system call instead of
// four (open, fstat, read, close). Every `pty screen` reads the terminal's
// foreground from four such files: on the loaded 2-core machine the opens
// and closes were about a sixth of the agent's time in a send+screen round
// trip (issue 9). A descriptor of /proc/PID/... belongs to the process, not
// the number: once that process is reaped its reads fail (ESRCH), and the
// file is opened again by path, which then names whoever holds PID now.
import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";

const chunk = Buffer.allocUnsafe(4096);

/** One /proc file kept open; `read()` gives its whole text now, or null when it cannot be read. */
export class ProcFile {
  #fd: number | undefined;

  constructor(readonly path: string) {}

  /** The file's text now (latin1 keeps bytes as they are: /proc text is ASCII but for names and argv). */
  read(encoding: "latin1" | "utf8" = "latin1"): string | null {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        this.#fd ??= openSync(this.path, "r");
        return readWhole(this.#fd, encoding);
      } catch {
        // Gone (ESRCH after the process was reaped) or never there: once more by path.
        this.close();
      }
    }
    return null;
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already closed: nothing to free
    }
    this.#fd = undefined;
  }
}

/** Reads from offset 0 until the end (a long cmdline takes several reads). */
function readWhole(fd: number, encoding: "latin1" | "utf8"): string {
  let length = readSync(fd, chunk, 0, chunk.length, 0);
  if (length < chunk.length) return chunk.toString(encoding, 0, length);
  const parts: Buffer[] = [];
  let offset = 0;
  while (length > 0) {
    parts.push(Buffer.from(chunk.subarray(0, length)));
    offset += length;
    length = readSync(fd, chunk, 0, chunk.length, offset);
  }
  return Buffer.concat(parts).toString(encoding);
}
