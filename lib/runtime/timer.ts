// One-shot timers for the supervision path that every `run` and `collect`
// takes (the guardian's answer to a terminate, the wait for the output's
// end, --timeout). Under Deno 2 the global setTimeout is Deno's Node timer,
// and its first touch loads node:timers (with async_hooks and util's
// inspect): about 4.5 ms of each start (`deno run` of one setTimeout and
// clearTimeout against an empty file: 22.4 against 17.5 ms, N=21), a fifth
// of issue 9's 25 ms aim. That global is built on Deno's core timer, which
// costs under 1 ms (18.4), so under Deno the core timer is used when it has
// the shape this file knows (test/lib/runtime/timer.test.ts runs it under
// the Deno the project installs); otherwise, and on Node and Bun, setTimeout.
// Both keep the process alive while pending and clamp a delay outside 1 ms
// to 2^31-1 ms to 1 ms, as Node's does. The repeating, unreferenced timer is
// `collect`'s heartbeat: on by itself whenever $CI is set, so every CI
// `collect` under Deno would pay node:timers for it.

/** What this file uses of Deno's core (an internal API: checked before use). */
interface DenoCoreTimers {
  createTimer(callback: () => void, after: number, args: undefined, isRepeat: boolean, isRefed: boolean): unknown;
  cancelTimer(timer: unknown): void;
}

/** Deno's core timers when present and of the known shape, else undefined. */
function denoCoreTimers(): DenoCoreTimers | undefined {
  const deno = (globalThis as { Deno?: Record<symbol | string, unknown> }).Deno;
  const internal = deno?.internal;
  if (typeof internal !== "symbol") return undefined;
  const core = (deno?.[internal] as { core?: Partial<DenoCoreTimers> } | undefined)?.core;
  return typeof core?.createTimer === "function" && core.createTimer.length >= 5 && typeof core.cancelTimer === "function"
    ? core as DenoCoreTimers
    : undefined;
}

/** Starts a timer; `repeat` fires every `ms`, `keepAlive` false lets the process exit while it is pending. */
type StartTimer = (ms: number, fire: () => void, repeat: boolean, keepAlive: boolean) => () => void;

let chosen: StartTimer | undefined;

function choose(): StartTimer {
  const core = denoCoreTimers();
  if (core !== undefined) {
    return (ms, fire, repeat, keepAlive) => {
      const timer = core.createTimer(fire, ms, undefined, repeat, keepAlive);
      return () => core.cancelTimer(timer);
    };
  }
  return (ms, fire, repeat, keepAlive) => {
    if (repeat) {
      const timer = setInterval(fire, ms);
      if (!keepAlive) timer.unref?.();
      return () => clearInterval(timer);
    }
    const timer = setTimeout(fire, ms);
    if (!keepAlive) timer.unref?.();
    return () => clearTimeout(timer);
  };
}

/** Calls `fire` once, `ms` from now; returns what stops it (harmless after it fired). */
export function startTimer(ms: number, fire: () => void): () => void {
  chosen ??= choose();
  return chosen(ms, fire, false, true);
}

/** Calls `fire` every `ms` until stopped, without keeping the process alive; returns what stops it. */
export function startBackgroundTicker(ms: number, fire: () => void): () => void {
  chosen ??= choose();
  return chosen(ms, fire, true, false);
}
