// The zsh completion script (`_corral`), generated from the completion
// model. Native zsh completion (compadd/_describe, with the briefs as
// descriptions), sharing its case tables with the bash script.
import type { CommandSpec } from "./model.ts";
import {
  generatedHeader,
  listFunction,
  positionalKindFunction,
  valueKindFunction,
} from "./shell-data.ts";

// `_describe` splits "name:description" at the first unescaped colon.
function described(name: string, brief: string): string {
  return `${name.replace(/:/g, "\\:")}:${brief.replace(/\s+/g, " ")}`;
}

// Written with @{ for ${ so the template literal leaves zsh expansions alone.
const WALKER = String.raw`_corral_is_child() {
  local c
  for c in @{(f)"$(_corral_children "$1")"}; do [[ @{c%%:*} == "$2" ]] && return 0; done
  return 1
}

# Offers candidates of one value kind (see _corral_value_kind).
_corral_offer() {
  local -a ids
  case "$1" in
    enum:*) compadd -- @{=@{1#enum:}} ;;
    any:*) _message -e values "@{1#any:}" ;;
    file) _files ;;
    dir) _files -/ ;;
    command) _command_names -e ;;
    sessions|jobs)
      ids=(@{(f)"$(@{words[1]} completions --ids "$1" 2>/dev/null)"})
      compadd -a ids ;;
  esac
}

_corral() {
  local cur=@{words[CURRENT]} cpath="" npos=0 dashdash=0 pending="" i w
  local -a items
  for ((i = 2; i < CURRENT; i++)); do
    w=@{words[i]}
    if [[ -n $pending ]]; then pending=""; continue; fi
    if [[ $w == -- ]]; then dashdash=$i; break; fi
    if [[ $w == -* ]]; then
      [[ $w != *=* && -n $(_corral_value_kind "$cpath" "$w") ]] && pending=$w
      continue
    fi
    if ((npos == 0)) && _corral_is_child "$cpath" "$w"; then cpath=@{cpath:+$cpath }$w; else npos=$((npos + 1)); fi
  done
  if ((dashdash > 0)); then
    if ((CURRENT == dashdash + 1)); then _corral_offer command; else _corral_offer file; fi
  elif [[ -n $pending ]]; then
    _corral_offer "$(_corral_value_kind "$cpath" "$pending")"
  elif [[ $cur == -*=* ]]; then
    compset -P '*='
    _corral_offer "$(_corral_value_kind "$cpath" "@{cur%%=*}")"
  elif [[ $cur == -* ]]; then
    items=(@{(f)"$(_corral_flags "$cpath")"})
    _describe -t flags flag items
  elif ((npos == 0)) && [[ -n $(_corral_children "$cpath") ]]; then
    items=(@{(f)"$(_corral_children "$cpath")"})
    _describe -t commands command items
  else
    _corral_offer "$(_corral_positional_kind "$cpath" "$npos")"
  fi
}

# Autoloaded from $fpath (#compdef) it completes now; sourced, it registers.
if [[ @{zsh_eval_context[-1]} == loadautofunc ]]; then
  _corral "$@"
else
  compdef _corral corral
fi`.replaceAll("@{", "${");

/** The whole zsh script for the given command tree. */
export function zshScript(model: readonly CommandSpec[]): string {
  return [
    "#compdef corral",
    generatedHeader("zsh"),
    "# Install: copy to a directory on $fpath as _corral (then compinit), or source it after compinit.",
    "",
    listFunction("children", model, (cmd) => cmd.children.map((c) => described(c.name, c.brief))),
    "",
    listFunction("flags", model, (cmd) => cmd.flags.flatMap((f) => [f.name, ...f.aliases].map((n) => described(n, f.brief)))),
    "",
    valueKindFunction(model),
    "",
    positionalKindFunction(model),
    "",
    WALKER,
    "",
  ].join("\n");
}
