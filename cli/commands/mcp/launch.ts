// What a tool that starts a command (run, terminal_open, job_start) does
// before anything runs: the command as argv (a `command` string goes to
// `sh -c`), the --allow check, and the child's environment: the caller's,
// scrubbed of credentials unless the server runs with --no-scrub (the names
// dropped are reported in every answer, never the values), plus `env`, plus
// the hardening that makes a prompt fail instead of hang.
import { buildChildEnv } from "../../../lib/env/child-env.ts";
import type { ToolCall } from "./tool.ts";
import { ToolError } from "./tool.ts";

/**
 * Set unless the call's `env` says otherwise: git, apt and pagers must not
 * wait for a person. A `run` has no terminal at all, so a program that
 * opens /dev/tty fails at once instead of waiting.
 */
export const HARDENING: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  DEBIAN_FRONTEND: "noninteractive",
};

/** The checked command and environment of one start. */
export interface Launch {
  readonly argv: [string, ...string[]];
  /** The command as --allow matches it and answers show it. */
  readonly line: string;
  readonly env: Record<string, string>;
  /** Credential-shaped names left out of the environment (never values). */
  readonly scrubbed: readonly string[];
}

const SHELL_META = /[;&|`$()<>\n\\]/;

/** Checks `command`/`argv`, --allow and `env`; throws ToolError naming what is wrong. */
export function prepareLaunch(input: Record<string, unknown>, call: ToolCall, harden: boolean): Launch {
  const { argv: given, command } = input;
  let argv: [string, ...string[]];
  let line: string;
  if (typeof command === "string" && given === undefined) {
    checkCommandLine(command, call, 'give "argv" instead');
    argv = ["sh", "-c", command];
    line = command;
  } else if (Array.isArray(given) && command === undefined && given.length > 0 && given.every((a) => typeof a === "string") && given[0] !== "") {
    argv = given as [string, ...string[]];
    line = argv.map(quoteWord).join(" ");
  } else {
    throw new ToolError("bad_request", 'give either "command" (a shell command line) or "argv" (an array of strings, program first), not both');
  }
  checkAllowed(line, call);
  const extra = input.env ?? {};
  if (typeof extra !== "object" || extra === null || Array.isArray(extra) || Object.values(extra).some((v) => typeof v !== "string")) {
    throw new ToolError("bad_request", '"env" must be an object of NAME: "value" strings');
  }
  const set = Object.entries(extra as Record<string, string>).map(([name, value]) => ({ name, value }));
  const child = buildChildEnv({
    base: harden ? { ...call.env, ...HARDENING } : call.env,
    scrubPatterns: call.config.env.scrub,
    keepPatterns: call.config.env.keep,
    scrub: call.options.scrub,
    set,
  });
  return { argv, line, env: child.env, scrubbed: child.dropped };
}

/**
 * A shell command line as --allow sees it (run's `command`, terminal_exec's):
 * not empty; under --allow, free of shell operators (one could chain
 * anything after an allowed start) and matching a pattern.
 */
export function checkCommandLine(command: string, call: ToolCall, instead: string): void {
  if (command.trim() === "") throw new ToolError("bad_request", '"command" is empty; give a shell command line, e.g. "make test"');
  if (call.options.allow.length > 0 && SHELL_META.test(command)) {
    throw new ToolError("not_allowed", `with --allow, a "command" string may not hold shell operators (; & | \` $ ( ) < > \\ or a newline): one could chain anything; ${instead}`);
  }
  checkAllowed(command, call);
}

/** Throws not_allowed unless the line matches one of --allow's patterns (none given: anything goes). */
function checkAllowed(line: string, call: ToolCall): void {
  if (call.options.allow.length > 0 && !call.options.allow.some((glob) => globMatches(glob, line))) {
    throw new ToolError("not_allowed", `${JSON.stringify(line.slice(0, 200))} matches no --allow pattern of this server (${call.options.allow.map((g) => JSON.stringify(g)).join(", ")})`);
  }
}

/** A shell-style glob over the whole command line: `*` any run of characters, `?` one. */
export function globMatches(glob: string, line: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[\\s\\S]*").replace(/\?/g, "[\\s\\S]");
  return new RegExp(`^${pattern}$`).test(line);
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
