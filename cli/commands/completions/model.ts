// The command registry flattened into plain data for the script generators:
// one entry per command path with its subcommands, flags, what each flag's
// value is, and what its positionals are. Generated scripts depend only on
// this, so they change exactly when the command definitions change.
import type { CommandContext, RouteMap } from "@stricli/core";
import { ID_PARAMETERS, ID_PLACEHOLDERS } from "./ids.ts";
import { type CommandTarget, hasNegation, isGroup, positionalsOf, takesNoValue, visibleFlags } from "../../shared/command-parameters.ts";

/** What a value is, so a script knows what to offer for it. */
export type ValueKind =
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "file" | "dir" | "command" | "sessions" | "jobs" }
  /** Free text; `hint` (the placeholder: size, dur, ...) is shown by zsh. */
  | { readonly kind: "any"; readonly hint?: string };

/** One flag as typed on the command line. */
export interface FlagSpec {
  /** `--max-bytes` */
  readonly name: string;
  /** `-m`, when it has one. */
  readonly aliases: readonly string[];
  readonly brief: string;
  /** What its value is; undefined for a flag that takes none. */
  readonly value: ValueKind | undefined;
}

/** One node of the command tree: a command or a group (`pty`). */
export interface CommandSpec {
  /** Words after `corral` ([] for the root). */
  readonly path: readonly string[];
  readonly brief: string;
  /** Subcommands, for a group. */
  readonly children: readonly { readonly name: string; readonly brief: string }[];
  readonly flags: readonly FlagSpec[];
  /** Kind of each positional by index; `rest` applies past the end. */
  readonly positional: readonly ValueKind[];
  readonly rest: ValueKind | undefined;
}

const HELP: FlagSpec = { name: "--help", aliases: ["-h"], brief: "Print help information and exit", value: undefined };
const VERSION: FlagSpec = { name: "--version", aliases: ["-v"], brief: "Print version information and exit", value: undefined };

// Placeholders double as type names: FILE, DIR, CMD, SESSION, JOB, and
// `a|b|c` for a positional that takes one of those words.
function kindFromPlaceholder(placeholder: string | undefined, idKey: string): ValueKind {
  const id = ID_PARAMETERS[idKey];
  if (id !== undefined) return { kind: id };
  if (placeholder?.includes("|") === true) return { kind: "enum", values: placeholder.split("|") };
  const p = (placeholder ?? "").toLowerCase();
  const idKind = ID_PLACEHOLDERS[p];
  if (idKind !== undefined) return { kind: idKind };
  if (/^(file|path)s?$/.test(p) || p.endsWith("file")) return { kind: "file" };
  if (/^(dir|directory)$/.test(p)) return { kind: "dir" };
  if (/^(cmd|command)$/.test(p)) return { kind: "command" };
  return placeholder === undefined || placeholder === "" ? { kind: "any" } : { kind: "any", hint: placeholder };
}

function commandSpec(path: readonly string[], target: CommandTarget): CommandSpec {
  const key = path.join(" ");
  const extra = path.length === 0 ? [HELP, VERSION] : [HELP];
  if (isGroup(target)) {
    const children = target.getAllEntries()
      .filter((e) => !e.hidden)
      .map((e) => ({ name: e.name["convert-camel-to-kebab"], brief: e.target.brief }));
    return { path, brief: target.brief, children, flags: extra, positional: [], rest: undefined };
  }
  const flags: FlagSpec[] = [];
  for (const { name, aliases, raw } of visibleFlags(target)) {
    const value: ValueKind | undefined = takesNoValue(raw)
      ? undefined
      : raw.kind === "enum"
      ? { kind: "enum", values: [...(raw.values ?? [])] }
      : kindFromPlaceholder(raw.placeholder, `${key} ${name}`);
    flags.push({ name, aliases, brief: raw.brief, value });
    if (hasNegation(raw)) flags.push({ name: `--no-${name.slice(2)}`, aliases: [], brief: raw.brief, value: undefined });
  }
  flags.sort((a, b) => a.name.localeCompare(b.name));
  flags.push(...extra);
  const pos = positionalsOf(target);
  const positional = pos?.kind === "tuple"
    ? pos.parameters.map((p, index) => kindFromPlaceholder(p.placeholder, `${key} ${index}`))
    : [];
  let rest = pos?.kind === "array" ? kindFromPlaceholder(pos.parameter.placeholder, `${key} 0`) : undefined;
  // `-- CMD [ARGS...]`: a command name first, then (most often) file names.
  if (rest?.kind === "command") {
    positional.push(rest);
    rest = { kind: "file" };
  }
  return { path, brief: target.brief, children: [], flags, positional, rest };
}

/**
 * The words the command line takes besides the registry's commands
 * (cli/run-routes.ts): `corral help [COMMAND...]` and `corral version`.
 */
const WORDS = [
  { name: "help", brief: "Print a command's help: corral help COMMAND... (as COMMAND... --help)" },
  { name: "version", brief: "Print the version (as --version)" },
];

/** Every command and group reachable from the root, parents before children; then `help` over the groups, and `version`. */
export function completionModel(root: RouteMap<CommandContext>): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (path: readonly string[], target: CommandTarget): void => {
    out.push(commandSpec(path, target));
    if (!isGroup(target)) return;
    for (const entry of target.getAllEntries()) {
      if (!entry.hidden) visit([...path, entry.name["convert-camel-to-kebab"]], entry.target);
    }
  };
  visit([], root);
  // `help` offers what follows it as the root and each group do: corral help pty <TAB>.
  const groups = out.filter((spec) => spec.children.length > 0);
  const rootSpec = out[0] as CommandSpec;
  out[0] = { ...rootSpec, children: [...rootSpec.children, ...WORDS] };
  for (const group of groups) {
    out.push({ path: ["help", ...group.path], brief: WORDS[0]!.brief, children: group.children, flags: [], positional: [], rest: undefined });
  }
  out.push({ path: ["version"], brief: WORDS[1]!.brief, children: [], flags: [], positional: [], rest: undefined });
  return out;
}
