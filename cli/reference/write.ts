// Writes the reference generated from the command table: man/corral.1, a
// man/corral-COMMAND.1 per top-level command, and docs/commands.md. Run after
// changing any command, flag or description, and commit the result:
//   npm run reference            (node --import tsx cli/reference/write.ts)
// test/cli/reference.test.ts fails while the committed files are stale, as
// completions-stale.test.ts does for completions/.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { CommandContext, RouteMap } from "@stricli/core";
import { loadRoutes } from "../registry.ts";
import { CORRAL_VERSION } from "../shared/version.ts";
import { commandsMarkdown } from "./markdown.ts";
import { referenceModel } from "./model.ts";
import { commandPage, mainPage } from "./roff.ts";

const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ["CORRAL_CONFIG", "The config file (else $XDG_CONFIG_HOME/corral/config.yaml, else ~/.config/corral/config.yaml)."],
  ["CORRAL_STATE_DIR", "The state dir holding the agent's socket, lock, log and records (else $XDG_RUNTIME_DIR/corral, else /tmp/corral-$UID)."],
  ["CORRAL_SOCKET", "The agent's socket (also --socket)."],
  ["CORRAL_GUARDIAN", "auto, always or never: whether processes run under the guardian (config key guardian)."],
  ["CORRAL_GUARDIAN_BIN", "Another build of the guardian to use."],
  ["CORRAL_CACHE_DIR", "Where a guardian built on first need goes (else $XDG_CACHE_HOME/corral, else ~/.cache/corral)."],
  ["CORRAL_AGENT_IDLE", "How long an idle agent waits before it exits (config key agent.idle-timeout)."],
  ["CI", "When set, collect prints a heartbeat every 5 minutes unless told otherwise."],
  ["GITHUB_ACTIONS, GITLAB_CI", "Choose the markers collect --group writes."],
  ["COLUMNS", "The width --help wraps to (else the terminal's, else 80)."],
];

const EXIT_STATUS: readonly (readonly [string, string])[] = [
  ["0", "Success."],
  ["the command's own", "run, collect, fg and jobs wait exit with the command's status; 128+N when it was killed by signal N."],
  ["1", "An unknown job or session, a name held by a running session, a session that has exited, an agent that refused; probe: no process can run here."],
  ["2", "A usage error: a bad flag or value."],
  ["3", "probe: degraded, corral works without the guardian."],
  ["124", "A --timeout fired, or a wait gave up."],
  ["125", "corral's own failure, including a lost supervisor."],
  ["126", "The command was found but is not executable."],
  ["127", "The command was not found."],
  ["148", "A --tty job was stopped (Ctrl-Z) and parked."],
];

/** The repository's root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Every generated file, path (from the root) to content. */
export async function referenceFiles(): Promise<Map<string, string>> {
  const root = referenceModel((await loadRoutes()) as unknown as RouteMap<CommandContext>);
  const files = new Map<string, string>();
  files.set("man/corral.1", mainPage(root, CORRAL_VERSION, { environment: ENVIRONMENT, exitStatus: EXIT_STATUS }));
  for (const command of root.children) files.set(`man/corral-${command.path.join("-")}.1`, commandPage(command, CORRAL_VERSION));
  files.set("docs/commands.md", commandsMarkdown(root));
  return files;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await referenceFiles();
  mkdirSync(path.join(repoRoot, "man"), { recursive: true });
  for (const stale of readdirSync(path.join(repoRoot, "man")).filter((f) => f.endsWith(".1") && !files.has(`man/${f}`))) {
    rmSync(path.join(repoRoot, "man", stale));
  }
  for (const [file, content] of files) writeFileSync(path.join(repoRoot, file), content);
  process.stdout.write(`wrote ${[...files.keys()].join(", ")}\n`);
}
