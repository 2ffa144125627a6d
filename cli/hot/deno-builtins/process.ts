// `node:process` in Deno's hot bundles (deferred.ts says why): what a hot
// command reads on every start (the environment, the user id, the pid, the
// platform) and its exit status, from Deno's own API. Everything else
// (signals, stdin, exit, kill) is the real node:process, loaded then.

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoProcess {
  readonly pid: number;
  readonly build: { readonly os: string };
  uid(): number | null;
  exitCode: number;
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

/** What this file answers itself; the rest of node:process is deferred (cli/hot/build.mjs). */
export const ownProcess = {
  get env(): Record<string, string | undefined> {
    env ??= environment();
    return env;
  },
  pid: deno.pid,
  platform: deno.build.os, // "linux", "darwin": the names Node uses
  getuid: (): number => deno.uid() ?? 0,
  // Deno.exitCode is what Deno exits with, and the real process.exitCode writes it too.
  get exitCode(): number | undefined {
    return deno.exitCode === 0 ? undefined : deno.exitCode;
  },
  set exitCode(code: number | string | undefined) {
    deno.exitCode = code === undefined ? 0 : Number(code);
  },
};
