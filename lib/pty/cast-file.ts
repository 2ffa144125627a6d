// The file a recording goes to, written behind the session's back: text is
// queued in memory and written by one background write at a time, so a slow
// disk never stalls the program's output. The queue is bounded: past
// MAX_QUEUED bytes the recorder is told to stop (recording less beats
// holding the session or growing without bound).
import { open, type FileHandle } from "node:fs/promises";
import { Buffer } from "node:buffer";

/** Queued bytes above which `write` refuses: the disk is not keeping up. */
export const MAX_QUEUED = 32 * 1024 * 1024;

/** An append-only file with a write queue. */
export class CastFile {
  #handle: FileHandle;
  #queue: string[] = [];
  #queued = 0;
  #writing: Promise<void> | undefined;
  #error: Error | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #done = false;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  /**
   * Creates (or truncates) `path`, readable by its owner only: a terminal's
   * output may hold what its user would not share. Rejects with the system's
   * error (ENOENT, EACCES, EISDIR) before the session is touched.
   */
  static async create(path: string): Promise<CastFile> {
    return new CastFile(await open(path, "w", 0o600));
  }

  /** Everything is written and the file is closed. */
  get closed(): boolean {
    return this.#done;
  }

  /** Why writing failed, once it did. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Queues `text`; false (nothing queued) when the queue is full (unless `always`), failed or closed. */
  write(text: string, always = false): boolean {
    if (this.#closed || this.#error !== undefined) return false;
    if (!always && this.#queued + text.length > MAX_QUEUED) return false;
    this.#queue.push(text);
    this.#queued += text.length;
    this.#writing ??= this.#drain();
    return true;
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && this.#error === undefined) {
      // One write for everything queued so far: few system calls under a flood.
      const chunk = Buffer.from(this.#queue.join(""), "utf8");
      this.#queue = [];
      this.#queued = 0;
      try {
        let offset = 0;
        while (offset < chunk.length) offset += (await this.#handle.write(chunk, offset)).bytesWritten;
      } catch (error) {
        this.#error = error instanceof Error ? error : new Error(String(error));
      }
    }
    this.#writing = undefined;
  }

  /** Writes what is queued and closes the file; idempotent (every call resolves once it is closed). */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= (async () => {
      while (this.#writing !== undefined) await this.#writing;
      await this.#handle.close().catch(() => {});
      this.#done = true;
    })();
    return this.#closing;
  }
}
