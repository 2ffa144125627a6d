// `node:process` in Deno's hot bundles (deferred.ts says why): what a hot
// command reads on every start (the environment, the user id, the pid, the
// platform, the working directory, the monotonic clock), its exit status, and the handlers of
// the signals run and collect forward to their child, from Deno's own API.
// Everything else (other events, stdin, exit, kill) is the real
// node:process, loaded then.
import { deferredBuiltin } from "./deferred.ts";

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoProcess {
  readonly pid: number;
  readonly build: { readonly os: string };
  uid(): number | null;
  cwd(): string;
  exitCode: number;
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
  readonly env: {
    toObject(): Record<string, string>;
    set(key: string, value: string): void;
    delete(key: string): void;
  };
}

const deno = (globalThis as unknown as { readonly Deno: DenoProcess }).Deno;

/**
 * process.env: a copy of the environment made on first read, whose writes
 * also go to the process's own (so a child started later through the real
 * node:process sees them, as in Node). Values are strings, as Node makes them.
 */
function environment(): Record<string, string | undefined> {
  return new Proxy(deno.env.toObject(), {
    set: (copy, key, value) => {
      if (typeof key !== "string") return false;
      copy[key] = String(value);
      deno.env.set(key, String(value));
      return true;
    },
    deleteProperty: (copy, key) => {
      if (typeof key !== "string") return false;
      delete copy[key];
      deno.env.delete(key);
      return true;
    },
  });
}

let env: Record<string, string | undefined> | undefined;

const realProcess = deferredBuiltin("node:process");
/** The signals corral forwards (cli/shared/signal-death.ts): process.on for these is answered here. */
const FORWARDED = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]);
/** Each signal's handlers given to on(), and what Deno was given for each (Node passes the signal's name). */
const signalHandlers = new Map<string, Map<unknown, () => void>>();

/**
 * process.on/off of a forwarded signal through Deno.addSignalListener and
 * removeSignalListener, which Deno's own node:process uses for them too
 * (so the default disposition is back once the last handler is off, as
 * signal-death.ts relies on); any other event goes to the real process.
 */
function signalListener(method: "on" | "off"): (this: unknown, event: unknown, listener: unknown) => unknown {
  return function (this: unknown, event, listener) {
    if (typeof event !== "string" || !FORWARDED.has(event) || typeof listener !== "function") {
      const real = realProcess();
      return (real[method] as (e: unknown, l: unknown) => unknown).call(real, event, listener);
    }
    let handlers = signalHandlers.get(event);
    if (handlers === undefined) signalHandlers.set(event, handlers = new Map());
    if (method === "on" && !handlers.has(listener)) {
      const handler = () => (listener as (signal: string) => void)(event);
      handlers.set(listener, handler);
      deno.addSignalListener(event, handler);
    } else if (method === "off") {
      const handler = handlers.get(listener);
      handlers.delete(listener);
      if (handler !== undefined) deno.removeSignalListener(event, handler);
    }
    return this;
  };
}

/**
 * process.hrtime: bigint() from performance.now(), as Deno's own
 * node:process makes it (so the two agree); the array form is the real one.
 */
const hrtime = Object.assign((...args: unknown[]): unknown => (realProcess().hrtime as (...a: unknown[]) => unknown)(...args), {
  bigint: (): bigint => BigInt(Math.round(performance.now() * 1e6)),
});

/** What this file answers itself; the rest of node:process is deferred (cli/hot/build.mjs). */
export const ownProcess = {
  get env(): Record<string, string | undefined> {
    env ??= environment();
    return env;
  },
  pid: deno.pid,
  platform: deno.build.os, // "linux", "darwin": the names Node uses
  getuid: (): number => deno.uid() ?? 0,
  // Node's own process.cwd() under Deno is Deno.cwd() too.
  cwd: (): string => deno.cwd(),
  hrtime,
  on: signalListener("on"),
  off: signalListener("off"),
  // Deno.exitCode is what Deno exits with, and the real process.exitCode writes it too.
  get exitCode(): number | undefined {
    return deno.exitCode === 0 ? undefined : deno.exitCode;
  },
  set exitCode(code: number | string | undefined) {
    deno.exitCode = code === undefined ? 0 : Number(code);
  },
};
