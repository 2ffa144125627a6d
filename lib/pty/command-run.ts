// `pty exec`: one command line typed into a hooked shell, its output taken
// from the output mark to the finish mark, its exit status from the finish
// mark. Never a guess: a session without a hooked shell, a shell busy with
// another command, in a continuation prompt (PS2) or holding typed text is
// an error before anything is typed; a command line the shell finds
// incomplete is cancelled (Ctrl-C) and is an error too, as is one it refuses.
import { CorralError } from "../core/corral-error.ts";
import { formatDuration } from "../core/duration.ts";
import { CommandOutput, type OutputLimits, type ShownCommandOutput } from "./command-output.ts";
import { execPrefix, type ShellKind } from "./shell-scripts.ts";
import type { ShellEvent, ShellState } from "./shell-state.ts";

/** What running a command takes besides the line. */
export interface CommandRunOptions extends OutputLimits {
  readonly timeoutMs: number;
  /** On timeout, Ctrl-C, then wait up to `graceMs` for the shell's prompt. */
  readonly interrupt: boolean;
  readonly graceMs: number;
  readonly signal?: AbortSignal;
}

/** How the command ended. */
export interface CommandRunResult {
  readonly output: ShownCommandOutput;
  /** The exit status as the shell gives it ($?: 128+N for signal N). */
  readonly status: number;
  readonly cwd: string | null;
  readonly durationMs: number;
  /** Output positions of the command's own output. */
  readonly from: number;
  readonly to: number;
}

/** What the runner needs of a session. */
export interface CommandTarget {
  readonly id: string;
  readonly shell: ShellState | null;
  readonly alive: boolean;
  write(data: string): number;
  onExit(listener: () => void): () => void;
  /**
   * Resolves true once the shell waits for its terminal with all it wrote
   * seen (`pty wait --ready`; with `after`, only once output after that
   * position came), false after `timeoutMs` or an abort.
   */
  untilWaitingForInput?(timeoutMs: number, after?: number, signal?: AbortSignal): Promise<boolean>;
}

/** How long a prompt that began is given to end before a command is typed anyway. */
const PROMPT_END_MS = 1000;

/**
 * fish's incomplete line is told by fish waiting for input with the line
 * unrun; a line longer than the terminal takes at once may leave fish
 * waiting between two parts of it, so only shorter lines are watched (a
 * longer incomplete one times out, as before).
 */
const FISH_INCOMPLETE_WATCHED = 2048;

/** How long clearing the line fish refused may take, and each Ctrl-C's wait for the fresh prompt. */
const CLEAR_LINE_MS = 15_000;
const CLEAR_TRY_MS = 1500;

/** Sessions with a `pty exec` in flight: a second one waits for nothing, it is refused. */
const running = new WeakSet<ShellState>();

/** Runs `line` in the target's shell; rejects with CorralError (no_shell_integration, shell_busy, command_not_run, timeout, session_exited). */
export async function runCommand(target: CommandTarget, line: string, options: CommandRunOptions): Promise<CommandRunResult> {
  const shell = target.shell;
  if (shell === null) {
    throw new CorralError("no_shell_integration", `session ${target.id} has no shell integration: pty exec needs a shell hooked at pty open (bash, zsh, fish or sh with no arguments but -i, bash also --norc and --noprofile, fish --no-config; not --no-shell-integration)`);
  }
  if (running.has(shell)) throw new CorralError("shell_busy", `session ${target.id} is running another pty exec; wait for it to finish`);
  running.add(shell);
  try {
    return await runIn(target, shell, line, options);
  } finally {
    running.delete(shell);
  }
}

async function runIn(target: CommandTarget, shell: ShellState, line: string, options: CommandRunOptions): Promise<CommandRunResult> {
  const deadline = Date.now() + options.timeoutMs;
  if (shell.phase === "starting") {
    const started = await until(target, shell, deadline, options.signal, () => shell.phase !== "starting");
    if (!started) throw new CorralError("timeout", `the shell in session ${target.id} showed no prompt within ${formatDuration(options.timeoutMs)}; nothing was typed`);
  }
  // A prompt being drawn: its end comes at once (a prompt that lost its end mark is given a moment).
  if (shell.phase === "prompt" && !shell.atPromptEnd) await until(target, shell, Math.min(deadline, Date.now() + PROMPT_END_MS), options.signal, () => shell.atPromptEnd || shell.phase !== "prompt");
  refuseBusy(target.id, shell);
  const typed = typedLine(shell.kind, line);
  const enters = typed.split("\r").length - 1;
  const output = await CommandOutput.open(options, shell.kind === "fish");
  let started: { from: number; at: number } | null = null;
  let continuations = 0;
  let finished: Outcome | null = null;
  let refusedWith: number | null = null;
  let settle!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  const stopListening = shell.listen((event: ShellEvent) => {
    if ("bytes" in event) {
      if (started !== null && finished === null) output.write(event.bytes);
      return;
    }
    const mark = event.mark;
    if (mark.kind === "C" && started === null) started = { from: mark.end, at: Date.now() };
    else if (mark.kind === "P" && started === null && ++continuations >= enters) settle({ kind: "incomplete" });
    else if (mark.kind === "D" && started !== null && finished === null) finished = { kind: "done", status: mark.status ?? 0, to: mark.at };
    else if (mark.kind === "D" && started === null) refusedWith = mark.status ?? null;
    // The prompt after the finish gives the working directory: the result waits for it.
    else if (mark.kind === "A" && finished !== null) settle(finished);
    // A new prompt and the line never started: the shell refused it (a syntax error) or found nothing to run.
    else if (mark.kind === "A" && started === null) settle({ kind: "refused" });
    // fish keeps a line it refuses in its editor and redraws its prompt over it: no new prompt start.
    else if (mark.kind === "B" && started === null && shell.kind === "fish") settle({ kind: "refused" });
  });
  const stopExit = target.onExit(() => settle(finished ?? { kind: "exited" }));
  const timer = setTimeout(() => settle(finished ?? { kind: "timeout" }), Math.max(0, deadline - Date.now()));
  const onAbort = () => settle({ kind: "aborted" });
  options.signal?.addEventListener("abort", onAbort);
  const watching = new AbortController();
  try {
    shell.expectLine(line);
    const typedAt = target.write(typed);
    // fish has no continuation prompt: a line it finds incomplete stays in its editor, and fish
    // waits for the rest. Seen as fish waiting for input after the echo, the line neither run nor refused.
    if (shell.kind === "fish" && typed.length <= FISH_INCOMPLETE_WATCHED && target.untilWaitingForInput !== undefined) {
      void target.untilWaitingForInput(Math.max(0, deadline - Date.now()), typedAt, watching.signal).then((waiting) => {
        if (waiting && started === null) settle({ kind: "incomplete" });
      }, () => {});
    }
    const end = await outcome;
    watching.abort();
    switch (end.kind) {
      case "done": {
        const from = (started as { from: number; at: number } | null)?.from ?? end.to;
        const startedAt = (started as { from: number; at: number } | null)?.at ?? Date.now();
        return { output: await output.finish(), status: end.status, cwd: shell.cwd, durationMs: Date.now() - startedAt, from, to: end.to };
      }
      case "incomplete":
        if (shell.kind === "fish") {
          await clearRefusedLine(target, shell, options.signal);
        } else {
          target.write("\x03");
          await until(target, shell, Date.now() + options.graceMs, options.signal, () => shell.phase === "prompt");
        }
        throw new CorralError(
          "command_not_run",
          `the shell in session ${target.id} found the command line incomplete (${shell.kind === "fish" ? "fish kept it in its editor, waiting for more" : "it asked for more with its continuation prompt"}); it was cancelled with Ctrl-C: check quotes, brackets and here-documents`,
        );
      case "refused": {
        const cleared = shell.kind === "fish" ? await clearRefusedLine(target, shell, options.signal) : true;
        throw new CorralError(
          "command_not_run",
          `the shell in session ${target.id} did not run the command line (a syntax error, or nothing to run)${refusedWith !== null ? `; it gave status ${refusedWith}` : ""}; its message is on the screen (pty screen ${target.id})` +
            (cleared ? "" : `; the line is still in fish's editor (pty send ${target.id} --key C-c clears it)`),
        );
      }
      case "exited":
        throw new CorralError("session_exited", `session ${target.id} exited before the command finished`);
      case "aborted":
        throw new CorralError("timeout", `pty exec in session ${target.id} was abandoned by its caller; the command may still run`);
      default: {
        const within = `within ${formatDuration(options.timeoutMs)}`;
        if (!options.interrupt) {
          throw new CorralError("timeout", `the command did not finish ${within}; it is still running in session ${target.id} (--interrupt sends Ctrl-C)`);
        }
        const status = await interrupt(target, shell, options.graceMs);
        throw new CorralError(
          "timeout",
          status !== null
            ? `the command did not finish ${within}; interrupted with Ctrl-C, it ended with status ${status}`
            : `the command did not finish ${within}, nor within ${formatDuration(options.graceMs)} after Ctrl-C; it may still run in session ${target.id}`,
        );
      }
    }
  } finally {
    watching.abort();
    clearTimeout(timer);
    stopListening();
    stopExit();
    options.signal?.removeEventListener("abort", onAbort);
    await output.abandon().catch(() => {});
  }
}

type Outcome =
  | { readonly kind: "done"; readonly status: number; readonly to: number }
  | { readonly kind: "incomplete" | "refused" | "exited" | "timeout" | "aborted" };

// Ctrl-C, then up to the grace for the finish mark: a timeout either way, said with what came of it.
async function interrupt(target: CommandTarget, shell: ShellState, graceMs: number): Promise<number | null> {
  let resolve!: (status: number | null) => void;
  const ended = new Promise<number | null>((r) => (resolve = r));
  const stop = shell.listen((event) => {
    if ("mark" in event && event.mark.kind === "D") resolve(event.mark.status ?? null);
  });
  const stopExit = target.onExit(() => resolve(null));
  const timer = setTimeout(() => resolve(null), graceMs);
  try {
    target.write("\x03");
    return await ended;
  } finally {
    clearTimeout(timer);
    stop();
    stopExit();
  }
}

/**
 * fish keeps a line it refuses in its editor; Ctrl-C clears it. fish keeps
 * ISIG on its terminal, so Ctrl-C reaches it as SIGINT, and one that comes
 * while fish still draws its prompt cancels the drawing, not the line (on a
 * loaded machine, often). So Ctrl-C goes when fish waits for its terminal,
 * and again until a fresh prompt shows. True once the line is empty.
 */
async function clearRefusedLine(target: CommandTarget, shell: ShellState, signal: AbortSignal | undefined): Promise<boolean> {
  const deadline = Date.now() + CLEAR_LINE_MS;
  while (Date.now() < deadline && target.alive && signal?.aborted !== true) {
    await target.untilWaitingForInput?.(CLEAR_TRY_MS);
    if (!shell.lineHoldsText) return true;
    target.write("\x03");
    await until(target, shell, Math.min(deadline, Date.now() + CLEAR_TRY_MS), signal, () => !shell.lineHoldsText);
  }
  return !shell.lineHoldsText;
}

function refuseBusy(id: string, shell: ShellState): void {
  if (shell.phase === "running") {
    throw new CorralError("shell_busy", `the shell in session ${id} is running a command; wait for it (pty wait ${id} --command-done) or stop it (pty send ${id} --key C-c)`);
  }
  if (shell.phase === "continuation") {
    throw new CorralError("shell_busy", `the shell in session ${id} is at its continuation prompt (PS2), waiting for the rest of a command; finish it or cancel it (pty send ${id} --key C-c)`);
  }
  if (shell.lineHoldsText) {
    throw new CorralError("shell_busy", `the command line of the shell in session ${id} holds typed text; clear it (pty send ${id} --key C-u) or run it (pty send ${id} --key Enter)`);
  }
}

/**
 * What is typed: the line and Enter. A line of several lines is one
 * command group, so the shell runs it as one command with one status
 * (typed as it is, each line would be a command of its own).
 */
export function typedLine(kind: ShellKind, line: string): string {
  const body = line.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
  const grouped = !body.includes("\n") ? body : kind === "fish" ? `begin\n${body}\nend` : `{\n${body}\n}`;
  return `${execPrefix(kind)}${grouped}`.replaceAll("\n", "\r") + "\r";
}

// Resolves true once `done()` holds (checked at each shell event), false at the deadline, the exit or an abort.
function until(target: CommandTarget, shell: ShellState, deadline: number, signal: AbortSignal | undefined, done: () => boolean): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer);
      stop();
      stopExit();
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const stop = shell.listen(() => {
      if (done()) finish(true);
    });
    const stopExit = target.onExit(() => finish(false));
    const onAbort = () => finish(false);
    signal?.addEventListener("abort", onAbort);
    const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
  });
}

