// The whole stream, byte-exact, in a file (DESIGN.md 4.3 `--spill`). The only
// part of the output store that touches the file system. Written for speed:
// chunks are queued by reference (no copy) and each syscall is one writev of
// everything queued so far, so a fast producer gets few, large writes.
import fs from "node:fs";
import { SpillError } from "./spill-error.ts";
import { type Slab, SLAB_BYTES, SlabPool } from "./spill-slabs.ts";
import { writeBatch } from "../runtime/batch-write.ts";

// Re-exported: the spill's callers need only this module.
export { SpillError };

// Linux caps one writev at IOV_MAX (1024) buffers.
const MAX_IOVECS = 1024;

/** Append-only spill writer with a byte-counted queue (the store's backpressure). */
export class SpillFile {
  readonly path: string;
  #fd: number;
  #queue: Uint8Array[] = [];
  /** Parallel to #queue: the slab a view lives in (appendCopy), else null. */
  #owners: (Slab | null)[] = [];
  #slabs: SlabPool | null = null;
  #queuedBytes = 0;
  #flushedBytes = 0;
  #writing = false;
  #error: SpillError | null = null;
  #idle: (() => void)[] = [];
  #progress: (() => void)[] = [];
  #reads = 0;
  #readsDone: (() => void)[] = [];

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /**
   * Creates or truncates `path` (mode 0666 & umask, as a shell redirection).
   * A symbolic link at the last component is refused (ELOOP), not followed:
   * a link planted in a shared directory must not aim corral's writes at
   * another file (issue 15).
   */
  static open(path: string): Promise<SpillFile> {
    return new Promise((resolve, reject) => {
      // Read and write, so lost ranges can be read back through the same descriptor.
      const { O_RDWR, O_CREAT, O_TRUNC, O_NOFOLLOW } = fs.constants;
      fs.open(path, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o666, (err, fd) => {
        if (err) reject(new SpillError(path, "open", err));
        else resolve(new SpillFile(path, fd));
      });
    });
  }

  /**
   * Opens an existing spill to continue it (a re-adopted job, issue 11):
   * appends after its `size` bytes, which count as already written.
   */
  static openAppend(path: string): Promise<SpillFile> {
    return new Promise((resolve, reject) => {
      const { O_RDWR, O_APPEND, O_NOFOLLOW } = fs.constants;
      fs.open(path, O_RDWR | O_APPEND | O_NOFOLLOW, (err, fd) => {
        if (err) return reject(new SpillError(path, "open", err));
        fs.fstat(fd, (statErr, st) => {
          if (statErr) {
            fs.close(fd, () => reject(new SpillError(path, "open", statErr)));
            return;
          }
          const file = new SpillFile(path, fd);
          file.#flushedBytes = st.size;
          resolve(file);
        });
      });
    });
  }

  /** Bytes accepted but not yet on disk. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /**
   * Bytes of recycled slabs allocated for appendCopy so far (they are kept
   * for reuse, never freed while the spill is open): what copied chunks cost,
   * bounded by how much was queued at once.
   */
  get slabBytes(): number {
    return (this.#slabs?.allocated ?? 0) * SLAB_BYTES;
  }

  /** Bytes written to the file so far (a prefix of the stream). */
  get flushedBytes(): number {
    return this.#flushedBytes;
  }

  /** The first write error; the spill stops there, the store goes on. */
  get error(): SpillError | null {
    return this.#error;
  }

  /** Queues `chunk` by reference: the caller must not modify it afterwards. */
  append(chunk: Uint8Array): void {
    if (this.#error !== null || chunk.length === 0) return;
    this.#queue.push(chunk);
    this.#owners.push(null);
    this.#queuedBytes += chunk.length;
    if (!this.#writing) this.#flush();
  }

  /** Queues a copy of `chunk` (in recycled slabs), so the caller may reuse it at once. */
  appendCopy(chunk: Uint8Array): void {
    if (this.#error !== null || chunk.length === 0) return;
    const slabs = (this.#slabs ??= new SlabPool());
    for (let at = 0; at < chunk.length;) {
      const slab = slabs.current();
      const start = slab.used;
      const n = Math.min(chunk.length - at, slab.buf.length - start);
      slab.buf.set(chunk.subarray(at, at + n), start);
      slab.used += n;
      at += n;
      const last = this.#queue.length - 1;
      const prev = this.#queue[last];
      if (prev !== undefined && this.#owners[last] === slab && prev.byteOffset + prev.length === start) {
        // Still queued and contiguous: grow the view instead of adding one.
        this.#queue[last] = slab.buf.subarray(prev.byteOffset, start + n);
      } else {
        this.#queue.push(slab.buf.subarray(start, start + n));
        this.#owners.push(slab);
        slab.refs++;
      }
    }
    this.#queuedBytes += chunk.length;
    if (!this.#writing) this.#flush();
  }

  #flush(): void {
    if (this.#queue.length === 0 || this.#error !== null || this.#fd < 0) {
      this.#writing = false;
      this.#wake(this.#idle);
      return;
    }
    this.#writing = true;
    const whole = this.#queue.length <= MAX_IOVECS;
    const batch = whole ? this.#queue : this.#queue.slice(0, MAX_IOVECS);
    const owners = whole ? this.#owners : this.#owners.slice(0, MAX_IOVECS);
    this.#queue = whole ? [] : this.#queue.slice(MAX_IOVECS);
    this.#owners = whole ? [] : this.#owners.slice(MAX_IOVECS);
    let size = 0;
    for (const b of batch) size += b.length;
    this.#writeBatch(batch, size, owners);
  }

  // writev may write less than asked (rare for regular files, but allowed):
  // resubmit what is left of the batch until all of it is down.
  #writeBatch(batch: Uint8Array[], size: number, owners: (Slab | null)[]): void {
    writeBatch(this.#fd, batch, (err, written) => {
      if (err) {
        this.#release(owners);
        this.#fail(err);
        return;
      }
      this.#flushedBytes += written;
      this.#queuedBytes -= written;
      this.#wake(this.#progress);
      if (written < size) {
        this.#writeBatch(dropPrefix(batch, written), size - written, owners);
        return;
      }
      this.#release(owners);
      this.#flush();
    });
  }

  #release(owners: (Slab | null)[]): void {
    const slabs = this.#slabs;
    if (slabs === null) return;
    for (const slab of owners) if (slab !== null) slabs.release(slab);
  }

  #fail(err: unknown): void {
    this.#error = new SpillError(this.path, "write", err);
    this.#release(this.#owners);
    this.#queue = [];
    this.#owners = [];
    this.#queuedBytes = 0;
    this.#writing = false;
    this.#wake(this.#progress);
    this.#wake(this.#idle);
  }

  #wake(list: (() => void)[]): void {
    const waiting = list.splice(0);
    for (const w of waiting) w();
  }

  /** Resolves once the queue holds at most `bytes` (or the spill failed). */
  async queueAtMost(bytes: number): Promise<void> {
    while (this.#queuedBytes > bytes && this.#error === null) {
      await new Promise<void>((resolve) => this.#progress.push(resolve));
    }
  }

  /** Resolves once the first `bytes` bytes are on disk, or the queue ran dry first, or the spill failed. */
  async flushedTo(bytes: number): Promise<void> {
    while (this.#flushedBytes < bytes && this.#queuedBytes > 0 && this.#error === null) {
      await new Promise<void>((resolve) => this.#progress.push(resolve));
    }
  }

  /** Resolves once everything queued is on disk (or the spill failed). */
  idle(): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Reads bytes [offset, offset+length) that are already on disk. */
  readAt(offset: number, length: number): Promise<Uint8Array> {
    const n = Math.max(0, Math.min(length, this.#flushedBytes - offset));
    const buf = new Uint8Array(n);
    if (n === 0) return Promise.resolve(buf);
    const own = this.#fd >= 0;
    return new Promise((resolve, reject) => {
      const done = (err: unknown, got: number) => {
        if (err) reject(new SpillError(this.path, "read", err));
        else resolve(buf.subarray(0, got));
      };
      if (own) {
        // Counted, so close() cannot free the descriptor under this read.
        this.#reads++;
        fs.read(this.#fd, buf, 0, n, offset, (err, got) => {
          if (--this.#reads === 0) this.#wake(this.#readsDone);
          done(err, got);
        });
        return;
      }
      readFileRange(this.path, offset, n).then((bytes) => resolve(bytes), reject);
    });
  }

  /** Flushes what is queued, then closes the file. Call once. */
  async close(): Promise<void> {
    await this.idle();
    while (this.#reads > 0) await new Promise<void>((resolve) => this.#readsDone.push(resolve));
    const fd = this.#fd;
    this.#fd = -1;
    await new Promise<void>((resolve, reject) => {
      fs.close(fd, (err) => (err && this.#error === null ? reject(new SpillError(this.path, "close", err)) : resolve()));
    });
    if (this.#error !== null) throw this.#error;
  }
}

/** The buffers of `batch` with the first `n` bytes removed (views, no copy). */
function dropPrefix(batch: Uint8Array[], n: number): Uint8Array[] {
  let i = 0;
  let skip = n;
  while (i < batch.length && skip >= (batch[i] as Uint8Array).length) skip -= (batch[i++] as Uint8Array).length;
  const rest = batch.slice(i);
  if (rest.length > 0 && skip > 0) rest[0] = (rest[0] as Uint8Array).subarray(skip);
  return rest;
}

/** Bytes [offset, offset+length) of the file at `path` (fewer at its end). */
export function readFileRange(path: string, offset: number, length: number): Promise<Uint8Array> {
  const buf = new Uint8Array(length);
  return new Promise((resolve, reject) => {
    fs.open(path, "r", (err, fd) => {
      if (err) return reject(new SpillError(path, "read", err));
      fs.read(fd, buf, 0, length, offset, (readErr, got) =>
        fs.close(fd, () => (readErr ? reject(new SpillError(path, "read", readErr)) : resolve(buf.subarray(0, got)))));
    });
  });
}
