// Running a command line over a given route map: stricli runs the command,
// then the exit status is mapped and a forwarded signal is died of. Shared by
// the whole-table path (run-app.ts, over the registry) and the one-command
// bundles (cli/hot/), which must not load the registry.
import { run, type RouteMap } from "@stricli/core";
import process from "node:process";
import { isatty } from "node:tty";
import { buildApp } from "./app.ts";
import type { CorralContext, CorralProcess } from "./context.ts";
import { ExitStatus } from "./shared/exit-status.ts";
import { dieOfSignal } from "./shared/signal-death.ts";

/** Runs the command in `args` over `routes` and sets process.exitCode. */
export async function runAppOver(routes: RouteMap<CorralContext>, args: readonly string[]): Promise<void> {
  const corralProcess: CorralProcess = {
    stdout: stdioOnFirstUse(1),
    stderr: stdioOnFirstUse(2),
    env: process.env,
  };

  process.exitCode = await runCommandLineOver(routes, args, corralProcess);

  if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
}

/**
 * corral's stdout or stderr for the commands, made when a command first
 * uses it: the runtime builds a stream object on first access of
 * process.stdout (Node: about 3 ms of a `corral run -- true`, which writes
 * nothing; Bun loads node:stream for it, 12 ms). stricli asks each stream's
 * colour depth before any command runs, so that answer comes from the
 * descriptor itself: only a terminal gets colour, on every runtime (Deno's
 * node:tty says 4 colour levels for a pipe or a file too, and a script
 * capturing corral's stderr under Deno got escape codes).
 */
function stdioOnFirstUse(fd: 1 | 2): NodeJS.WriteStream {
  const terminal = isatty(fd);
  let made: NodeJS.WriteStream | undefined;
  const stream = (): NodeJS.WriteStream => {
    if (made !== undefined) return made;
    made = fd === 1 ? process.stdout : process.stderr;
    if (!terminal) made.getColorDepth = () => 1;
    return made;
  };
  const colourDepth = (env?: object) => (terminal ? stream().getColorDepth(env) : 1);
  return new Proxy({} as NodeJS.WriteStream, {
    get(_target, key) {
      if (key === "getColorDepth") return colourDepth;
      if (key === "isTTY" && made === undefined) return terminal;
      const real = stream();
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === "function" ? value.bind(real) : value;
    },
    set: (_target, key, value) => Reflect.set(stream(), key, value),
    has: (_target, key) => key in stream(),
  });
}

/** Runs one command line over `routes` against `corralProcess`; returns corral's exit status. */
export async function runCommandLineOver(routes: RouteMap<CorralContext>, args: readonly string[], corralProcess: CorralProcess): Promise<number> {
  await run(buildApp(routes), args, { process: corralProcess });

  // stricli reports its own failures as negative codes: a bad flag or value,
  // an unknown command. corral's contract (DESIGN.md 4.1) calls those usage
  // errors, status 2; any other negative code is corral's own failure.
  const code = corralProcess.exitCode;
  if (typeof code === "number" && code < 0) {
    return code === -4 || code === -5 ? ExitStatus.usage : ExitStatus.corralFailure;
  }
  return typeof code === "number" ? code : ExitStatus.ok;
}
