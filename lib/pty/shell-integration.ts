// Which programs `pty open` hooks, and how: bash, zsh, fish and a POSIX sh
// (dash), told by the basename of argv[0] and started interactively with no
// other arguments; anything else is never touched. The hook files are
// written once per directory (the agent's state dir) and read by the shell
// at start; the nonce travels in the environment and the shell drops it.
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import process from "node:process";
import path from "node:path";
import type { PtySpawnRequest } from "../supervise/handle.ts";
import {
  BASH_NORC_VARIABLE,
  BASH_RC,
  FISH_INIT,
  NONCE_VARIABLE,
  SH_ENV,
  type ShellKind,
  USER_ENV_VARIABLE,
  USER_PROMPT_COMMAND_VARIABLE,
  USER_PROMPT_VARIABLES,
  USER_ZDOTDIR_VARIABLE,
  ZSH_ENV,
  ZSH_RC,
} from "./shell-scripts.ts";

export type { ShellKind } from "./shell-scripts.ts";

/** A session's hook: which shell, and the nonce its marks carry (kept in the session's record). */
export interface ShellHook {
  readonly kind: ShellKind;
  readonly nonce: string;
}

/** Bumped when a script changes, so a running agent never hands a new shell an old file. */
const SCRIPTS_VERSION = 3;

const KIND_OF: Record<string, ShellKind> = { bash: "bash", zsh: "zsh", fish: "fish", dash: "sh", sh: "sh" };
/**
 * Arguments a shell may have and still be hooked: they keep it interactive
 * and leave the hook a way in (bash --norc reads no file: its hook comes
 * through PROMPT_COMMAND; fish --no-config still runs --init-command).
 */
const KEPT_ARGS: Record<ShellKind, readonly string[]> = {
  bash: ["-i", "--norc", "--noprofile"],
  zsh: ["-i"],
  sh: ["-i"],
  fish: ["-i", "--interactive", "-l", "--login", "-N", "--no-config"],
};

/** The shell `argv` starts, when corral knows how to hook it as started; else null. */
export function shellKindOf(argv: readonly string[]): ShellKind | null {
  const kind = KIND_OF[path.basename(argv[0] ?? "")];
  if (kind === undefined) return null;
  return argv.slice(1).every((arg) => KEPT_ARGS[kind].includes(arg)) ? kind : null;
}

/** The spawn request with the hook in: extra arguments and environment, the files written to `dir`. */
export function hookedRequest(request: PtySpawnRequest, hook: ShellHook, dir: string | undefined): PtySpawnRequest {
  const files = scriptsDir(dir);
  const env: Record<string, string> = { ...request.env, [NONCE_VARIABLE]: hook.nonce };
  const [file, ...rest] = request.argv;
  const args = rest.includes("-i") || hook.kind === "fish" ? rest : [...rest, "-i"];
  switch (hook.kind) {
    case "bash": {
      // bash takes its long options before its letters.
      const long = args.filter((arg) => arg.startsWith("--"));
      const letters = args.filter((arg) => !arg.startsWith("--"));
      const script = path.join(files, "bashrc");
      if (!long.includes("--norc")) return { ...request, env, argv: [file as string, ...long, "--rcfile", script, ...letters] };
      // --norc reads no startup file, --rcfile's included: the script comes in at the first prompt.
      if (request.env.PROMPT_COMMAND !== undefined) env[USER_PROMPT_COMMAND_VARIABLE] = request.env.PROMPT_COMMAND;
      env[BASH_NORC_VARIABLE] = "1";
      env.PROMPT_COMMAND = `. ${quotePosix(script)}`;
      return { ...request, env, argv: [file as string, ...long, ...letters] };
    }
    case "zsh":
      if (request.env.ZDOTDIR !== undefined) env[USER_ZDOTDIR_VARIABLE] = request.env.ZDOTDIR;
      env.ZDOTDIR = path.join(files, "zsh");
      return { ...request, env, argv: [file as string, ...args] };
    case "fish":
      return { ...request, env, argv: [file as string, ...args, "--init-command", `source ${quoteFish(path.join(files, "init.fish"))}`] };
    case "sh":
      if (request.env.ENV !== undefined) env[USER_ENV_VARIABLE] = request.env.ENV;
      for (const [name, carrier] of Object.entries(USER_PROMPT_VARIABLES)) {
        const prompt = request.env[name];
        if (prompt === undefined) continue;
        env[carrier] = prompt;
        delete env[name];
      }
      env.ENV = path.join(files, "env.sh");
      return { ...request, env, argv: [file as string, ...args] };
  }
}

const written = new Map<string, string>();
let privateDir: string | undefined;

/**
 * Where a process that runs sessions without a state dir (the library used
 * directly, tests) keeps the scripts: a directory of its own, removed when
 * the process exits (each shell reads its hook as it starts).
 */
function privateScriptsBase(): string {
  if (privateDir === undefined) {
    const made = mkdtempSync(path.join(os.tmpdir(), "corral-shell-"));
    privateDir = made;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  }
  return privateDir;
}

// The directory holding this version's scripts, written once per process.
function scriptsDir(dir: string | undefined): string {
  const base = dir ?? privateScriptsBase();
  const cached = written.get(base);
  if (cached !== undefined) return cached;
  const files = path.join(base, `shell-integration-${SCRIPTS_VERSION}`);
  mkdirSync(path.join(files, "zsh"), { recursive: true, mode: 0o700 });
  chmodSync(files, 0o700);
  const put = (name: string, text: string) => {
    // Whole or not at all: another agent process may be reading it.
    const target = path.join(files, name);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, target);
  };
  put("bashrc", BASH_RC);
  put("zsh/.zshenv", ZSH_ENV);
  put("zsh/.zshrc", ZSH_RC);
  put("init.fish", FISH_INIT);
  put("env.sh", SH_ENV);
  written.set(base, files);
  return files;
}

function quotePosix(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function quoteFish(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
