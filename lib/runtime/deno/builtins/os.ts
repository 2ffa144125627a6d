// `node:os` in Deno's hot bundles (deferred.ts says why): `run` and
// `collect` ask it only for the temporary directory (where the guardian's
// owner socket goes) and the signal numbers (exit statuses, forwarding).
// Both are answered here: tmpdir() by Node's POSIX rule, and the signal
// table on Linux x86-64 and arm64, whose numbers are fixed by the kernel's
// generic ABI. Anything else (and every answer on other systems) is the
// real node:os, loaded then.
import { deferredBuiltin } from "./deferred.ts";

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoOsApi {
  readonly build: { readonly os: string; readonly arch: string };
  readonly env: { get(key: string): string | undefined };
}

const deno = (globalThis as unknown as { readonly Deno: DenoOsApi }).Deno;
const realOs = deferredBuiltin("node:os");

/** os.tmpdir() on POSIX: $TMPDIR, $TMP, $TEMP, else /tmp; one trailing slash off (not from "/"). */
function tmpdir(...args: unknown[]): string {
  if (args.length > 0) return (realOs().tmpdir as (...a: unknown[]) => string)(...args);
  const dir = deno.env.get("TMPDIR") || deno.env.get("TMP") || deno.env.get("TEMP") || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** Linux's signal numbers (asm-generic, x86-64 and arm64), in the order Deno's node:os lists them. */
const LINUX_SIGNALS: Readonly<Record<string, number>> = Object.freeze({
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7,
  SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14,
  SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21,
  SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28,
  SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31, SIGUNUSED: 31,
});

/** os.constants: `signals` from the table above, every other key from the real module. */
const constants = new Proxy({ signals: LINUX_SIGNALS } as Record<string, unknown>, {
  get: (own, key) => (key === "signals" ? own.signals : Reflect.get(realOs().constants as object, key)),
  has: (_own, key) => key === "signals" || key in (realOs().constants as object),
});

const linuxAbi = deno.build.os === "linux" && (deno.build.arch === "x86_64" || deno.build.arch === "aarch64");

/** What this file answers itself; the rest of node:os is deferred (cli/hot/build.mjs). */
export const ownOs: Record<string, unknown> = deno.build.os === "windows"
  ? {}
  : linuxAbi ? { tmpdir, constants } : { tmpdir };
