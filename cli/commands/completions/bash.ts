// The bash completion script, generated from the completion model. Plain
// bash (3.2 and later, no bash-completion package needed): the command tree
// is a set of `case` tables, one walker finds where the cursor is.
import type { CommandSpec } from "./model.ts";
import {
  generatedHeader,
  listFunction,
  positionalKindFunction,
  valueKindFunction,
} from "./shell-data.ts";

// Written with @{ for ${ so the template literal leaves bash expansions alone.
const WALKER = String.raw`_corral_is_child() {
  local c
  while IFS= read -r c; do [[ $c == "$2" ]] && return 0; done < <(_corral_children "$1")
  return 1
}

# Offers candidates of one value kind (see _corral_value_kind) for $2.
_corral_offer() {
  local IFS=$'\n'
  case "$1" in
    enum:*) IFS=$' \t\n'; COMPREPLY=($(compgen -W "@{1#enum:}" -- "$2")) ;;
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    command) COMPREPLY=($(compgen -c -- "$2")) ;;
    sessions|jobs) COMPREPLY=($(compgen -W "$("@{COMP_WORDS[0]}" completions --ids "$1" 2>/dev/null)" -- "$2")) ;;
  esac
}

_corral() {
  local cur=@{COMP_WORDS[COMP_CWORD]} cpath="" npos=0 dashdash=-1 pending="" i w
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=@{COMP_WORDS[i]}
    if [[ -n $pending ]]; then
      [[ $w == "=" ]] || pending=""
      continue
    fi
    if [[ $w == -- ]]; then dashdash=$i; break; fi
    if [[ $w == -* ]]; then
      [[ $w != *=* && -n $(_corral_value_kind "$cpath" "$w") ]] && pending=$w
      continue
    fi
    if ((npos == 0)) && _corral_is_child "$cpath" "$w"; then cpath=@{cpath:+$cpath }$w; else npos=$((npos + 1)); fi
  done
  if ((dashdash >= 0)); then
    if ((COMP_CWORD == dashdash + 1)); then _corral_offer command "$cur"; else _corral_offer file "$cur"; fi
  elif [[ -n $pending ]]; then
    [[ $cur == "=" ]] && cur=""
    _corral_offer "$(_corral_value_kind "$cpath" "$pending")" "$cur"
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_corral_flags "$cpath")" -- "$cur"))
  elif ((npos == 0)) && [[ -n $(_corral_children "$cpath") ]]; then
    COMPREPLY=($(compgen -W "$(_corral_children "$cpath")" -- "$cur"))
  else
    _corral_offer "$(_corral_positional_kind "$cpath" "$npos")" "$cur"
  fi
  return 0
}

complete -F _corral corral`.replaceAll("@{", "${");

/** The whole bash script for the given command tree. */
export function bashScript(model: readonly CommandSpec[]): string {
  return [
    generatedHeader("bash"),
    "# Install: source it from ~/.bashrc, or copy it to ~/.local/share/bash-completion/completions/corral",
    "",
    listFunction("children", model, (cmd) => cmd.children.map((c) => c.name)),
    "",
    listFunction("flags", model, (cmd) => cmd.flags.flatMap((f) => [f.name, ...f.aliases])),
    "",
    valueKindFunction(model),
    "",
    positionalKindFunction(model),
    "",
    WALKER,
    "",
  ].join("\n");
}
