// How a stricli command's definition is read as data, by the writers that
// describe the command table rather than run it: the shell completion
// scripts and the reference (man pages, docs/commands.md). Both list the
// same flags under the same names, so they read them in one place.
import type { Command, CommandContext, RouteMap } from "@stricli/core";

/** A flag's definition as stricli keeps it (the fields the writers read). */
export interface RawFlag {
  readonly kind: string;
  readonly brief: string;
  readonly hidden?: boolean;
  readonly placeholder?: string;
  readonly values?: readonly string[];
  readonly default?: unknown;
  readonly variadic?: boolean | string;
  readonly withNegated?: boolean;
}

/** A positional's definition as stricli keeps it. */
export interface RawPositional {
  readonly placeholder?: string;
  readonly brief: string;
  readonly optional?: boolean;
  readonly default?: unknown;
}

export type RawPositionals =
  | { readonly kind: "tuple"; readonly parameters: readonly RawPositional[] }
  | { readonly kind: "array"; readonly parameter: RawPositional; readonly minimum?: number }
  | undefined;

export type CommandTarget = Command<CommandContext> | RouteMap<CommandContext>;

/** A visible flag: its name as typed (`--max-bytes`), its aliases (`-m`) and definition. */
export interface VisibleFlag {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly raw: RawFlag;
}

/** `maxBytes` as typed: `max-bytes`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function isGroup(target: CommandTarget): target is RouteMap<CommandContext> {
  return "getAllEntries" in target;
}

/** The flags `--help` shows, in definition order, hidden ones left out. */
export function visibleFlags(command: Command<CommandContext>): VisibleFlag[] {
  const params = command.parameters;
  const aliasesOf = new Map<string, string[]>();
  for (const [letter, flagName] of Object.entries((params.aliases ?? {}) as Record<string, string | undefined>)) {
    if (flagName !== undefined) aliasesOf.set(flagName, [...(aliasesOf.get(flagName) ?? []), `-${letter}`]);
  }
  const flags: VisibleFlag[] = [];
  for (const [flagName, raw] of Object.entries((params.flags ?? {}) as Record<string, RawFlag>)) {
    if (raw.hidden !== true) flags.push({ name: `--${kebab(flagName)}`, aliases: (aliasesOf.get(flagName) ?? []).sort(), raw });
  }
  return flags;
}

/** A flag that takes no value (a switch or a counter). */
export function takesNoValue(raw: RawFlag): boolean {
  return raw.kind === "boolean" || raw.kind === "counter";
}

/** A boolean that defaults to true is switched off with its negation (`--no-scrub`). */
export function hasNegation(raw: RawFlag): boolean {
  return raw.kind === "boolean" && raw.default === true && raw.withNegated !== false;
}

export function positionalsOf(command: Command<CommandContext>): RawPositionals {
  return command.parameters.positional as RawPositionals;
}
