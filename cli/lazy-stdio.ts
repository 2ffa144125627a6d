// The context's stdout and stderr (run-routes.ts): process.stdout and
// process.stderr, set up only when a command first uses one. Why (issue 9,
// start-up): under Bun the first touch of either builds Bun's Node stream
// classes (node:stream, the fs streams), 24 of the 68 ms of a profiled
// `bun dist/corral.mjs jobs` (`bun -e 'process.stdout'` is +15 ms over
// `bun -e 0`), and most one-shot commands write nothing there: `run -- true`
// (the child has the descriptors), `pty send`, `jobs` with nothing to list.
// stricli asks both streams for their colour depth before any command runs;
// that is answered from fstat(2) where the descriptor surely is no terminal
// (node:tty's isatty costs Bun as much as the stream: `bun -e` of isatty(1)
// 26.5 ms, bare 11.7, N=30; it defines tty.WriteStream over net.Socket), and by the real
// stream otherwise. Writes to such a descriptor (pipe, file, socket,
// /dev/null) are written at once with writeSync, as Node's own stdout does
// for pipes and files on Linux (synchronous there): `pty screen` under Bun
// then never builds the stream (54 -> 40 ms of CPU, bare 9). When the descriptor
// cannot take them now (EAGAIN: someone made it non-blocking) or fails
// (EPIPE), the real stream takes the rest and every later write, with its
// own waiting, 'drain' and errors (a closed pipe: closed-pipe.ts); listeners
// added before that (collect waits on 'error' while it prints) are handed to
// it then, so printing
// collect's output does not load node:process under Deno (about 15 ms).
// Everything else is the real stream's own, created on first use.
import { fstatSync, writeSync } from "node:fs";
import process from "node:process";
import { endQuietlyOnClosedPipe } from "./closed-pipe.ts";

/** A stand-in for process.stdout (fd 1) or process.stderr (fd 2) that sets the real one up on first use. */
export function lazyStdio(fd: 1 | 2): NodeJS.WriteStream {
  let real: NodeJS.WriteStream | undefined;
  let noTerminal: boolean | undefined;
  const direct = () => real === undefined && (noTerminal ??= surelyNoTerminal(fd));
  // Listeners added while writes go straight to the descriptor (collect's writeAll listens for "error"):
  // kept here, and handed to the real stream when there is one.
  const waiting: [string | symbol, (...args: unknown[]) => void][] = [];
  const stream = (): NodeJS.WriteStream => {
    if (real !== undefined) return real;
    real = colourOnlyTerminal(fd === 1 ? process.stdout : process.stderr);
    endQuietlyOnClosedPipe(real);
    for (const [event, listener] of waiting.splice(0)) (real.on as Listen).call(real, event, listener);
    return real;
  };
  const listen = (method: "on" | "off") => (event: string | symbol, listener: (...args: unknown[]) => void): NodeJS.WriteStream => {
    if (!direct()) {
      const target = stream();
      return (target[method] as Listen).call(target, event, listener);
    }
    if (method === "on") waiting.push([event, listener]);
    else {
      const at = waiting.findIndex(([e, l]) => e === event && l === listener);
      if (at >= 0) waiting.splice(at, 1);
    }
    return proxy;
  };
  const on = listen("on");
  const off = listen("off");
  const getColorDepth = (env?: object): number => (direct() ? 1 : stream().getColorDepth(env));
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean => {
    const done = typeof encoding === "function" ? encoding : callback;
    const text = typeof chunk === "string";
    if (!direct() || (text && typeof encoding === "string" && encoding !== "utf8" && encoding !== "utf-8")) {
      return typeof encoding === "string" ? stream().write(chunk, encoding, done) : stream().write(chunk, done);
    }
    const bytes = text ? utf8.encode(chunk) : chunk;
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    } catch {
      return stream().write(bytes.subarray(written), done);
    }
    if (done !== undefined) queueMicrotask(() => done(null));
    return true;
  };
  const proxy: NodeJS.WriteStream = new Proxy(Object.create(null) as NodeJS.WriteStream, {
    get: (_target, key) => {
      if (key === "getColorDepth") return getColorDepth;
      if (key === "write") return write;
      if (key === "on" || key === "addListener") return on;
      if (key === "off" || key === "removeListener") return off;
      // Writes straight to the descriptor: nothing to have destroyed (a failed one hands over to the stream).
      if (key === "destroyed" && direct()) return false;
      // A pipe's or a file's stream has no isTTY at all.
      if (key === "isTTY" && direct()) return undefined;
      const target = stream();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set: (_target, key, value) => Reflect.set(stream(), key, value),
    has: (_target, key) => key in stream(),
    getPrototypeOf: () => Object.getPrototypeOf(stream()) as object | null,
  });
  return proxy;
}

/**
 * stricli colours its messages when a stream's getColorDepth() says so, and
 * Deno's node:tty says 4 colour levels for a pipe or a file too: a script
 * capturing corral's stderr under Deno got escape codes. Only a terminal
 * gets colour, on every runtime.
 */
function colourOnlyTerminal(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!stream.isTTY) stream.getColorDepth = () => 1;
  return stream;
}

type WriteCallback = (error?: Error | null) => void;
type Listen = (event: string | symbol, listener: (...args: unknown[]) => void) => NodeJS.WriteStream;

const utf8 = new TextEncoder();

/** `/dev/null` on Linux: character device 1,3. */
const DEV_NULL_RDEV = (1 << 8) | 3;

/**
 * True when `fd` is a pipe, a socket, a file or /dev/null: no terminal.
 * False when it may be one (another character device) or fstat fails: the
 * real stream decides then.
 */
function surelyNoTerminal(fd: number): boolean {
  try {
    const info = fstatSync(fd);
    return !info.isCharacterDevice() || (process.platform === "linux" && info.rdev === DEV_NULL_RDEV);
  } catch {
    return false;
  }
}
