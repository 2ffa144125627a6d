// The wait conditions typed to `pty wait` and `pty send --wait-*`, checked
// here (exit 2 before the agent is reached; durations arrive parsed) and
// printed back the same way.
import type { WaitConditions, WaitReply } from "../../../lib/agent/protocol/messages.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { DEFAULT_WAIT_TIMEOUT_MS } from "../../../lib/core/defaults.ts";

/** The timeout when none is given (lib/core/defaults.ts). */
export { DEFAULT_WAIT_TIMEOUT_MS };

/** What the flags of one command say to wait for. */
export interface ConditionFlags {
  readonly text: readonly string[];
  readonly regex: readonly string[];
  readonly stable: number | undefined;
  readonly ready: boolean;
  readonly exit: boolean;
  readonly timeout: number | undefined;
}

/** Checks the flags; null when none asks for a wait. Throws UsageError. */
export async function waitConditions(flags: ConditionFlags): Promise<WaitConditions | null> {
  const stableMs = flags.stable;
  if (flags.text.length === 0 && flags.regex.length === 0 && stableMs === undefined && !flags.ready && !flags.exit) return null;
  if (flags.regex.length > 0) {
    // Loaded only when a regex is given: the engine is not needed otherwise.
    const { compileRegex, PatternError } = await import("../../../lib/pty/wait-pattern.ts");
    for (const source of flags.regex) {
      try {
        compileRegex(source);
      } catch (error) {
        throw error instanceof PatternError ? new UsageError(error.message) : error;
      }
    }
  }
  return {
    ...(flags.text.length > 0 ? { text: flags.text } : {}),
    ...(flags.regex.length > 0 ? { regex: flags.regex } : {}),
    ...(stableMs !== undefined ? { stableMs } : {}),
    ...(flags.ready ? { ready: true } : {}),
    ...(flags.exit ? { exit: true } : {}),
    timeoutMs: flags.timeout ?? DEFAULT_WAIT_TIMEOUT_MS,
  };
}

/** The `--wait-*` flags `pty open` and `pty send` share, with their `--timeout`. */
export interface WaitFlagValues {
  readonly waitText?: readonly string[];
  readonly waitRegex?: readonly string[];
  readonly waitStable?: number;
  readonly waitReady: boolean;
  readonly timeout?: number;
}

/** The conditions `--wait-*` asks for, or null; `--timeout` without one is a usage error. */
export async function waitFlagConditions(flags: WaitFlagValues): Promise<WaitConditions | null> {
  const wait = await waitConditions({
    text: flags.waitText ?? [],
    regex: flags.waitRegex ?? [],
    stable: flags.waitStable,
    ready: flags.waitReady,
    exit: false,
    timeout: flags.timeout,
  });
  if (wait === null && flags.timeout !== undefined) {
    throw new UsageError("--timeout goes with --wait-text, --wait-regex, --wait-stable or --wait-ready");
  }
  return wait;
}

/** The plain-text answer of a wait (the condition that fired), and a note on stderr when output was no longer kept. */
export function printWait(out: { write(text: string): unknown }, err: { write(text: string): unknown }, reply: WaitReply, json: boolean): void {
  out.write(json ? `${JSON.stringify(reply)}\n` : `${reply.fired}\n`);
  if (reply.windowExceeded) {
    err.write("corral: part of the output after the start position was no longer kept (10,000 lines / 1 MiB); it was not searched\n");
  }
}
