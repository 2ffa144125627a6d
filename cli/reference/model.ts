// The command table (cli/registry.ts) as plain data for the reference
// writers (man pages, docs/commands.md): the same definitions `--help`
// prints, so the reference changes exactly when the help does. A command's
// fullDescription is split into its prose and its `Examples:` block.
import type { Command, CommandContext } from "@stricli/core";
import { type CommandTarget, hasNegation, isGroup, positionalsOf, takesNoValue, visibleFlags } from "../shared/command-parameters.ts";

export interface ReferenceFlag {
  /** `--max-bytes` */
  readonly name: string;
  /** `-m`, when it has one. */
  readonly aliases: readonly string[];
  /** The value's placeholder (`size`), undefined for a flag that takes none. */
  readonly value: string | undefined;
  readonly brief: string;
  readonly repeatable: boolean;
  /** `--no-scrub` beside `--scrub` for a boolean that defaults to true. */
  readonly negated: boolean;
}

export interface ReferenceArgument {
  readonly name: string;
  readonly brief: string;
  readonly optional: boolean;
  readonly repeatable: boolean;
}

export interface ReferenceCommand {
  /** Words after `corral` ([] for corral itself). */
  readonly path: readonly string[];
  readonly brief: string;
  /** Paragraphs of the description (each a list of lines as written), Examples aside. */
  readonly description: readonly (readonly string[])[];
  /** The example lines, unindented. */
  readonly examples: readonly string[];
  readonly flags: readonly ReferenceFlag[];
  readonly arguments: readonly ReferenceArgument[];
  /** Subcommands of a group, in the order help lists them. */
  readonly children: readonly ReferenceCommand[];
  /** For a group: the subcommand it runs when none is named. */
  readonly defaultChild: string | undefined;
}

/** The prose paragraphs and the example lines of a description. */
function splitDescription(full: string | undefined, brief: string): { description: string[][]; examples: string[] } {
  const lines = (full ?? brief).split("\n");
  const at = lines.findIndex((line) => line === "Examples:");
  const prose = at === -1 ? lines : lines.slice(0, at);
  const examples = at === -1 ? [] : lines.slice(at + 1).filter((l) => l.trim() !== "").map((l) => l.replace(/^ {2}/, ""));
  const description: string[][] = [];
  let paragraph: string[] = [];
  for (const line of prose) {
    if (line.trim() === "") {
      if (paragraph.length > 0) description.push(paragraph);
      paragraph = [];
    } else {
      paragraph.push(line);
    }
  }
  if (paragraph.length > 0) description.push(paragraph);
  return { description, examples };
}

function flagsOf(command: Command<CommandContext>): ReferenceFlag[] {
  return visibleFlags(command).map(({ name, aliases, raw }) => ({
    name,
    aliases,
    value: takesNoValue(raw) ? undefined : raw.kind === "enum" ? (raw.values ?? []).join("|") : raw.placeholder ?? "value",
    brief: raw.brief,
    repeatable: raw.variadic !== undefined && raw.variadic !== false,
    negated: hasNegation(raw),
  }));
}

function argumentsOf(command: Command<CommandContext>): ReferenceArgument[] {
  const pos = positionalsOf(command);
  if (pos === undefined) return [];
  if (pos.kind === "array") {
    return [{ name: pos.parameter.placeholder ?? "args", brief: pos.parameter.brief, optional: (pos.minimum ?? 0) === 0, repeatable: true }];
  }
  return pos.parameters.map((p, index) => ({
    name: p.placeholder ?? `arg${index + 1}`,
    brief: p.brief,
    optional: p.optional === true || p.default !== undefined,
    repeatable: false,
  }));
}

/** The reference model of `target`, found at `path`. */
export function referenceModel(target: CommandTarget, path: readonly string[] = []): ReferenceCommand {
  const { description, examples } = splitDescription(target.fullDescription, target.brief);
  if (isGroup(target)) {
    const entries = target.getAllEntries().filter((e) => !e.hidden);
    const fallback = target.getDefaultCommand();
    return {
      path,
      brief: target.brief,
      description,
      examples,
      flags: [],
      arguments: [],
      children: entries.map((e) => referenceModel(e.target, [...path, e.name["convert-camel-to-kebab"]])),
      defaultChild: entries.find((e) => e.target === fallback)?.name["convert-camel-to-kebab"],
    };
  }
  return { path, brief: target.brief, description, examples, flags: flagsOf(target), arguments: argumentsOf(target), children: [], defaultChild: undefined };
}

/** `corral pty send [--key name]... <session> [<text>]`, as stricli's usage line writes it. */
export function synopsis(command: ReferenceCommand): string {
  const words = ["corral", ...command.path];
  if (command.children.length > 0) return `${words.join(" ")} ${command.children.map((c) => c.path.at(-1)).join("|")} ...`;
  for (const flag of command.flags) {
    const name = flag.negated ? `--[no-]${flag.name.slice(2)}` : flag.name;
    words.push(`[${name}${flag.value === undefined ? "" : ` ${flag.value}`}]${flag.repeatable ? "..." : ""}`);
  }
  for (const arg of command.arguments) {
    // The program corral runs comes after `--`, so its own flags are not read as corral's.
    if (arg.repeatable && arg.name === "command") words.push("--");
    const word = `<${arg.name}>${arg.repeatable ? "..." : ""}`;
    words.push(arg.optional ? `[${word}]` : word);
  }
  return words.join(" ");
}

/** `corral pty send [options] <session> [<text>]`: the synopsis without the flags. */
export function shortSynopsis(command: ReferenceCommand): string {
  const words = ["corral", ...command.path];
  if (command.flags.length > 0) words.push("[options]");
  for (const arg of command.arguments) {
    if (arg.repeatable && arg.name === "command") words.push("--");
    const word = `<${arg.name}>${arg.repeatable ? "..." : ""}`;
    words.push(arg.optional ? `[${word}]` : word);
  }
  return words.join(" ");
}

/** A paragraph as runs of prose lines and of indented (literal) lines, such as connect's JSON requests. */
export function runsOf(paragraph: readonly string[]): { literal: boolean; lines: string[] }[] {
  const runs: { literal: boolean; lines: string[] }[] = [];
  for (const line of paragraph) {
    const literal = line.startsWith(" ");
    const last = runs.at(-1);
    if (last !== undefined && last.literal === literal) last.lines.push(literal ? line.replace(/^ {2}/, "") : line);
    else runs.push({ literal, lines: [literal ? line.replace(/^ {2}/, "") : line] });
  }
  return runs;
}

/** Every command of the tree, parents before children. */
export function flatten(command: ReferenceCommand): ReferenceCommand[] {
  return [command, ...command.children.flatMap(flatten)];
}
