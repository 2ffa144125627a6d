// The fish completion script, generated from the completion model. One
// dynamic `complete` entry: a walker finds the command path under the cursor
// and prints "candidate<TAB>description" lines from switch tables.
import type { CommandSpec, ValueKind } from "./model.ts";
import { generatedHeader, kindWord } from "./shell-data.ts";

/** Single-quotes text for fish (which escapes \ and ' inside quotes). */
function fq(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function described(name: string, brief: string): string {
  return fq(`${name}\t${brief.replace(/\s+/g, " ")}`);
}

function switchFunction(name: string, subject: string, cases: readonly [readonly string[], string][]): string {
  const lines = [`function __corral_${name}`, `    switch ${subject}`];
  for (const [patterns, body] of cases) lines.push(`        case ${patterns.map(fq).join(" ")}`, `            ${body}`);
  lines.push("    end", "end");
  return lines.join("\n");
}

function kindCases(model: readonly CommandSpec[]): [readonly string[], string][] {
  const cases: [readonly string[], string][] = [];
  for (const cmd of model) {
    for (const flag of cmd.flags) {
      if (flag.value === undefined) continue;
      cases.push([[flag.name, ...flag.aliases].map((f) => [...cmd.path, f].join(" ")), `echo ${fq(kindWord(flag.value))}`]);
    }
  }
  return cases;
}

function positionalCases(model: readonly CommandSpec[]): [readonly string[], string][] {
  const cases: [readonly string[], string][] = [];
  const echo = (kind: ValueKind) => `echo ${fq(kindWord(kind))}`;
  for (const cmd of model) {
    cmd.positional.forEach((kind, index) => kind.kind !== "any" && cases.push([[[...cmd.path, String(index)].join(" ")], echo(kind)]));
    if (cmd.rest !== undefined) cases.push([[`${cmd.path.join(" ")} *`], echo(cmd.rest)]);
  }
  return cases;
}

const WALKER = String.raw`function __corral_offer
    switch $argv[1]
        case 'enum:*'
            string split ' ' -- (string replace 'enum:' '' -- $argv[1])
        case file
            __fish_complete_path $argv[2]
        case dir
            __fish_complete_directories $argv[2]
        case command
            __fish_complete_command
        case sessions jobs
            set -l tokens (commandline -opc)
            command $tokens[1] completions --ids $argv[1] 2>/dev/null
    end
end

function __corral_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l cpath ''
    set -l npos 0
    set -l dashdash 0
    set -l pending ''
    set -l i 2
    while test $i -le (count $tokens)
        set -l w $tokens[$i]
        set -l names (__corral_children "$cpath" | string replace -r '\t.*' '')
        if test -n "$pending"
            set pending ''
        else if test "$w" = '--'
            set dashdash $i
            break
        else if string match -q -- '-*' $w
            set -l kind (__corral_value_kind (string trim -- "$cpath $w"))
            if not string match -q -- '*=*' $w; and test -n "$kind"
                set pending $w
            end
        else if test $npos -eq 0; and contains -- $w $names
            set cpath (string trim -- "$cpath $w")
        else
            set npos (math $npos + 1)
        end
        set i (math $i + 1)
    end
    set -l children (__corral_children "$cpath")
    if test $dashdash -gt 0
        if test (count $tokens) -eq $dashdash
            __corral_offer command "$cur"
        else
            __corral_offer file "$cur"
        end
    else if test -n "$pending"
        set -l kind (__corral_value_kind (string trim -- "$cpath $pending"))
        __corral_offer "$kind" "$cur"
    else if string match -q -- '-*' $cur
        __corral_flags "$cpath"
    else if test $npos -eq 0; and test (count $children) -gt 0
        printf '%s\n' $children
    else
        set -l kind (__corral_positional_kind (string trim -- "$cpath $npos"))
        __corral_offer "$kind" "$cur"
    end
end

complete -c corral -f -a '(__corral_complete)'`;

/** The whole fish script for the given command tree. */
export function fishScript(model: readonly CommandSpec[]): string {
  const children = model.filter((c) => c.children.length > 0)
    .map((c): [readonly string[], string] => [[c.path.join(" ")], `printf '%s\\n' ${c.children.map((ch) => described(ch.name, ch.brief)).join(" ")}`]);
  const flags = model.map((c): [readonly string[], string] => [
    [c.path.join(" ")],
    `printf '%s\\n' ${c.flags.flatMap((f) => [f.name, ...f.aliases].map((n) => described(n, f.brief))).join(" ")}`,
  ]);
  return [
    generatedHeader("fish"),
    "# Install: copy to ~/.config/fish/completions/corral.fish",
    "",
    switchFunction("children", "$argv[1]", children),
    "",
    switchFunction("flags", "$argv[1]", flags),
    "",
    switchFunction("value_kind", "$argv[1]", kindCases(model)),
    "",
    switchFunction("positional_kind", "$argv[1]", positionalCases(model)),
    "",
    WALKER,
    "",
  ].join("\n");
}
