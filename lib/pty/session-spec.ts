// What opening, reading and closing a session take, and how a spec becomes
// the backend's spawn request (command resolved, sizes clamped, TERM set).
import type { PtyBackend, PtySpawnRequest } from "../supervise/handle.ts";
import type { PtyBackendPreference } from "../supervise/decide.ts";
import type { GuardianMode } from "../config/schema.ts";
import type { ShellHook } from "./shell-integration.ts";
import { checkWorkingDirectory, resolveExecutable } from "../supervise/lookup.ts";
import { DEFAULT_COLS, DEFAULT_ROWS, DEFAULT_TERM, clampDimension } from "./screen-size.ts";

/** What opening a session takes. */
export interface PtySessionSpec {
  readonly argv: readonly string[];
  readonly cwd?: string;
  /** The caller's environment, already scrubbed (DESIGN.md 4.7). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cols?: number;
  readonly rows?: number;
  /** TERM for the program; default xterm-256color (the emulator is an xterm), whatever env says. */
  readonly term?: string;
  /** Lines kept above the visible grid (0..10000); default 0. */
  readonly scrollback?: number;
  readonly name?: string;
  readonly id?: string;
  /** A backend object, or a preference; default "auto". */
  readonly backend?: PtyBackend | PtyBackendPreference;
  /** Under "auto": the configured guardian mode (config key `guardian`; $CORRAL_GUARDIAN wins). Default "auto". */
  readonly guardian?: GuardianMode;
  /** Directory (0700, ours) for the guardian's socket; the agent passes its state dir. Default: a private temp dir. */
  readonly stateDir?: string;
  /** The guardian outlives this process and waits for a new owner (issue 11); the agent's sessions. */
  readonly adoptable?: boolean;
  /** With `adoptable`: how long the guardian waits for a new owner (config `agent.orphan-wait`); default as long as the program lives. */
  readonly orphanWaitMs?: number;
  /** Hook a shell (bash, zsh, fish, sh) for `pty exec` (shell-integration.ts); default true. */
  readonly shellIntegration?: boolean;
  /** A re-adopted session's hook, from its record: the marks in the replayed tail are read with it. */
  readonly shell?: ShellHook;
}

/** How a session is closed. */
export interface CloseOptions {
  /** Time the program gets after SIGHUP, then again after SIGTERM; default 2000 ms. */
  readonly graceMs?: number;
  /** Kill at once (SIGKILL after a zero grace). */
  readonly force?: boolean;
}

/** How a screen read is taken. */
export interface ScreenReadOptions {
  /** Report `changed` against this hash instead of the last read. */
  readonly since?: string;
  /** Lines above the visible grid to include (bounded by the session's scrollback). */
  readonly scrollback?: number;
  /** Do not record this read as the last read (listing, waiting). */
  readonly peek?: boolean;
}

/** The spawn request for `spec`; throws SpawnError for a bad cwd or command. */
export function spawnRequestOf(spec: PtySessionSpec): PtySpawnRequest {
  const cwd = spec.cwd ?? process.cwd();
  checkWorkingDirectory(cwd);
  const file = resolveExecutable(spec.argv[0] ?? "", spec.env.PATH, cwd);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.env)) if (value !== undefined) env[key] = value;
  env.TERM = spec.term ?? DEFAULT_TERM;
  return {
    argv: [file, ...spec.argv.slice(1)],
    cwd,
    env,
    cols: clampDimension(spec.cols, DEFAULT_COLS),
    rows: clampDimension(spec.rows, DEFAULT_ROWS),
  };
}
