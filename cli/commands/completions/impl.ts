// Implementation of `corral completions`, loaded lazily by cli/commands/completions/command.ts.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { CommandContext, RouteMap } from "@stricli/core";
import type { CorralContext } from "../../shared/context.ts";
import { type CompletionsFlags, type Shell, SHELLS } from "./flags.ts";
import { listIds } from "./ids.ts";
import { ExitStatus, UsageError } from "../../shared/exit-status.ts";

/** File name of each shell's script, as the shells look them up. */
export const SCRIPT_FILES: Readonly<Record<Shell, string>> = {
  bash: "corral.bash",
  zsh: "_corral",
  fish: "corral.fish",
};

/** The completion script for a shell, from the live command registry (handed down in the context). */
export async function completionScript(shell: Shell, commandTable: CorralContext["commandTable"]): Promise<string> {
  // Loaded here, not before: `--ids` (run on every TAB) needs neither the whole
  // table nor the generators.
  if (commandTable === undefined) throw new Error("the completion scripts need the whole command table, and this entry did not load it");
  const rootRoutes = await commandTable();
  const { completionModel } = await import("./model.ts");
  const model = completionModel(rootRoutes as unknown as RouteMap<CommandContext>);
  if (shell === "bash") return (await import("./bash.ts")).bashScript(model);
  if (shell === "zsh") return (await import("./zsh.ts")).zshScript(model);
  return (await import("./fish.ts")).fishScript(model);
}

/** Prints a script, writes all three (--write), or lists live ids (--ids). */
export async function completions(
  this: CorralContext,
  flags: CompletionsFlags,
  shellName: string | undefined,
): Promise<void> {
  if (shellName !== undefined && !(SHELLS as readonly string[]).includes(shellName)) {
    throw new UsageError(`"${shellName}" is not a supported shell; use bash, zsh or fish`);
  }
  const shell = shellName as Shell | undefined;
  if (flags.ids !== undefined) {
    // Called from inside a shell's completion: whatever happens, stay quiet.
    const ids = await listIds(flags.ids, this.process.env);
    if (ids.length > 0) this.process.stdout.write(`${ids.join("\n")}\n`);
    this.process.exitCode = ExitStatus.ok;
    return;
  }
  if (flags.write !== undefined) {
    if (shell !== undefined) throw new UsageError("--write writes all three scripts; give either a shell or --write DIR");
    for (const [name, file] of Object.entries(SCRIPT_FILES) as [Shell, string][]) {
      const target = path.join(flags.write, file);
      try {
        await writeFile(target, await completionScript(name, this.commandTable));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new Error(`cannot write ${target} (${code}); give an existing, writable directory to --write`);
      }
      this.process.stdout.write(`${target}\n`);
    }
    this.process.exitCode = ExitStatus.ok;
    return;
  }
  if (shell === undefined) throw new UsageError("name a shell: corral completions bash|zsh|fish (or --write DIR)");
  this.process.stdout.write(await completionScript(shell, this.commandTable));
  this.process.exitCode = ExitStatus.ok;
}
