// `node:fs` in Deno's hot bundles (deferred.ts says why): the calls a hot
// command makes on its way (state dir checks, /proc reads, the agent's
// trust checks, writes to stdout) done with Deno's own API, which costs no
// start-up. Only the plain forms are answered here: with options this file
// does not know, or on any error but a missing file, the call goes to the
// real node:fs, so a caller sees Node's own errors (code, message) and
// results. A missing file is an everyday answer on these paths (no config
// file, no agent yet), so its error is made here, as Node words it.
import { Buffer } from "node:buffer";
import { deferredBuiltin } from "./deferred.ts";

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoFileInfo {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly isSymlink: boolean;
  readonly size: number;
  readonly mtime: Date | null;
  readonly atime: Date | null;
  readonly birthtime: Date | null;
  readonly ctime: Date | null;
  readonly dev: number;
  readonly ino: number | null;
  readonly mode: number | null;
  readonly nlink: number | null;
  readonly uid: number | null;
  readonly gid: number | null;
  readonly rdev: number | null;
  readonly blksize: number | null;
  readonly blocks: number | null;
  readonly isBlockDevice: boolean | null;
  readonly isCharDevice: boolean | null;
  readonly isFifo: boolean | null;
  readonly isSocket: boolean | null;
}

interface DenoFs {
  uid(): number | null;
  statSync(path: string): DenoFileInfo;
  lstatSync(path: string): DenoFileInfo;
  readFileSync(path: string): Uint8Array;
  readDirSync(path: string): Iterable<{ readonly name: string }>;
  readLinkSync(path: string): string;
  realPathSync(path: string): string;
  readonly stdout: { writeSync(data: Uint8Array): number };
  readonly stderr: { writeSync(data: Uint8Array): number };
}

const deno = (globalThis as unknown as { readonly Deno: DenoFs }).Deno;
const realFs = deferredBuiltin("node:fs");
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** The real node:fs function `name` called with `args`: Node's own result or error. */
function real(name: string, args: unknown[]): never | unknown {
  return (realFs()[name] as (...a: unknown[]) => unknown)(...args);
}

/** The fields and methods of fs.Stats that callers read, from Deno's FileInfo. */
class DenoStats {
  readonly dev: number;
  readonly ino: number;
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  readonly rdev: number;
  readonly size: number;
  readonly blksize: number;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly #info: DenoFileInfo;
  constructor(info: DenoFileInfo) {
    this.#info = info;
    this.dev = info.dev;
    this.ino = info.ino ?? 0;
    this.mode = info.mode ?? 0;
    this.nlink = info.nlink ?? 0;
    this.uid = info.uid ?? 0;
    this.gid = info.gid ?? 0;
    this.rdev = info.rdev ?? 0;
    this.size = info.size;
    this.blksize = info.blksize ?? 0;
    this.blocks = info.blocks ?? 0;
    this.atimeMs = info.atime?.getTime() ?? 0;
    this.mtimeMs = info.mtime?.getTime() ?? 0;
    this.ctimeMs = info.ctime?.getTime() ?? 0;
    this.birthtimeMs = info.birthtime?.getTime() ?? 0;
  }
  get atime(): Date {
    return new Date(this.atimeMs);
  }
  get mtime(): Date {
    return new Date(this.mtimeMs);
  }
  get ctime(): Date {
    return new Date(this.ctimeMs);
  }
  get birthtime(): Date {
    return new Date(this.birthtimeMs);
  }
  isFile(): boolean {
    return this.#info.isFile;
  }
  isDirectory(): boolean {
    return this.#info.isDirectory;
  }
  isSymbolicLink(): boolean {
    return this.#info.isSymlink;
  }
  isSocket(): boolean {
    return this.#info.isSocket === true;
  }
  isFIFO(): boolean {
    return this.#info.isFifo === true;
  }
  isCharacterDevice(): boolean {
    return this.#info.isCharDevice === true;
  }
  isBlockDevice(): boolean {
    return this.#info.isBlockDevice === true;
  }
}

/** Node's error for a missing `path` (errno -2), when Deno says ENOENT; null for any other failure. */
function missingFile(error: unknown, syscall: string | undefined, path: string): Error | null {
  if (syscall === undefined || (error as { code?: unknown } | null)?.code !== "ENOENT") return null;
  const missing = new Error(`ENOENT: no such file or directory, ${syscall} '${path}'`);
  return Object.assign(missing, { errno: -2, code: "ENOENT", syscall, path });
}

/**
 * `fn` for a plain path; anything else, or a failure, goes to the real
 * node:fs `name`, but a missing file is answered with `syscall`'s error.
 */
function plainPath<T>(name: string, syscall: string | undefined, fn: (path: string) => T): (path: unknown, ...rest: unknown[]) => T {
  return (path, ...rest) => {
    if (typeof path !== "string" || rest.some((r) => r !== undefined)) return real(name, [path, ...rest]) as T;
    try {
      return fn(path);
    } catch (error) {
      const missing = missingFile(error, syscall, path);
      if (missing !== null) throw missing;
      return real(name, [path, ...rest]) as T;
    }
  };
}

export const statSync = plainPath("statSync", "stat", (path) => new DenoStats(deno.statSync(path)));
export const lstatSync = plainPath("lstatSync", "lstat", (path) => new DenoStats(deno.lstatSync(path)));
// "readdir", as Deno's node:fs words it (Node itself says "scandir").
export const readdirSync = plainPath("readdirSync", "readdir", (path) => Array.from(deno.readDirSync(path), (entry) => entry.name));
export const readlinkSync = plainPath("readlinkSync", "readlink", (path) => deno.readLinkSync(path));
// Node's realpath names the first missing part of the path: left to Node.
export const realpathSync = plainPath("realpathSync", undefined, (path) => deno.realPathSync(path));

export function existsSync(path: unknown): boolean {
  if (typeof path !== "string") return real("existsSync", [path]) as boolean;
  try {
    deno.statSync(path);
    return true;
  } catch {
    return false; // as Node's existsSync: any failure is "no"
  }
}

/** A descriptor's status through /proc/self/fd/N (Deno has no call on a bare descriptor). */
export function fstatSync(fd: unknown, ...rest: unknown[]): unknown {
  if (typeof fd !== "number" || rest.some((r) => r !== undefined)) return real("fstatSync", [fd, ...rest]);
  try {
    return new DenoStats(deno.statSync(`/proc/self/fd/${fd}`));
  } catch {
    return real("fstatSync", [fd]);
  }
}

/** fs.constants: the access modes (the same on Linux and macOS) answered here, the rest by node:fs. */
const ACCESS_MODES: Readonly<Record<string, number>> = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };
export const constants = new Proxy(ACCESS_MODES, {
  get: (own, key) => (typeof key === "string" && Object.hasOwn(own, key) ? own[key] : Reflect.get(realFs().constants as object, key)),
  has: (_own, key) => key in (realFs().constants as object),
});

/**
 * accessSync(path, X_OK) (is the guardian executable?) answered from the
 * file's mode where that settles it: a regular file of ours with the
 * owner's x bit (access(2) says yes then, and so does Deno's node:fs, which
 * reads the mode bits too, even for root). Anything else, and any other
 * mode, goes to node:fs. What the mode cannot show (a noexec mount) is then
 * found by the spawn, which says so.
 */
export function accessSync(path: unknown, mode?: unknown, ...rest: unknown[]): void {
  if (typeof path !== "string" || mode !== ACCESS_MODES.X_OK || rest.length > 0) return real("accessSync", [path, mode, ...rest]) as void;
  try {
    const info = deno.statSync(path);
    const uid = deno.uid();
    const bits = info.mode ?? 0;
    if (info.isFile && uid !== null && uid === info.uid && (bits & 0o100) !== 0) return;
  } catch {
    // Node words the failure
  }
  return real("accessSync", [path, mode]) as void;
}

/** Node's latin1: each byte the code point of its value (TextDecoder's "latin1" is windows-1252). */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let at = 0; at < bytes.length; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

const DECODERS: Readonly<Record<string, (bytes: Uint8Array) => string>> = {
  utf8: (bytes) => utf8.decode(bytes),
  "utf-8": (bytes) => utf8.decode(bytes),
  latin1,
};

/** Text for "utf8" and "latin1" (as a string or { encoding }), a Buffer for no options, as Node returns. */
export function readFileSync(path: unknown, options?: unknown): unknown {
  const encoding = typeof options === "string" ? options : (options as { encoding?: unknown } | undefined)?.encoding;
  const plainOptions = options === undefined || typeof options === "string" || Object.keys(options as object).every((k) => k === "encoding");
  const decode = typeof encoding === "string" && Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  if (typeof path !== "string" || !plainOptions || (encoding !== undefined && encoding !== null && decode === undefined)) return real("readFileSync", [path, options]);
  try {
    const bytes = deno.readFileSync(path);
    return decode !== undefined ? decode(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    const missing = missingFile(error, "open", path);
    if (missing !== null) throw missing;
    return real("readFileSync", [path, options]);
  }
}

/**
 * Writes to stdout and stderr (fd 1 and 2: Deno writes by its own handles,
 * not descriptors); any other descriptor, or a string at a position, goes
 * to node:fs. A failed write wrote nothing, so the second try is safe.
 */
export function writeSync(fd: unknown, data: unknown, offset?: unknown, length?: unknown, ...rest: unknown[]): number {
  const args = [fd, data, offset, length, ...rest];
  const handle = fd === 1 ? deno.stdout : fd === 2 ? deno.stderr : undefined;
  const text = typeof data === "string";
  if (handle === undefined || rest.length > 0 || (text && offset !== undefined) || (!text && !(data instanceof Uint8Array))) {
    return real("writeSync", args) as number;
  }
  let bytes = text ? encoder.encode(data) : (data as Uint8Array);
  if (!text && typeof offset === "number") bytes = bytes.subarray(offset, typeof length === "number" ? offset + length : undefined);
  try {
    return handle.writeSync(bytes);
  } catch {
    return real("writeSync", args) as number;
  }
}

/** What this file answers itself; the rest of node:fs is deferred (cli/hot/build.mjs). */
export const ownFs = { statSync, lstatSync, fstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, existsSync, writeSync, accessSync, constants };
