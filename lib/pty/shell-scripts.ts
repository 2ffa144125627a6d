// The hooks corral puts into a shell at `pty open` (docs/shell-integration.md),
// one script per shell, each loaded through the shell's own mechanism after
// the user's own startup file: bash's --rcfile, zsh's ZDOTDIR, fish's
// --init-command, a POSIX shell's $ENV. They print OSC 133 marks (A prompt
// start with the working directory, B prompt end, C output start, D;STATUS
// finished; P;k=s a continuation prompt), each carrying the session's nonce,
// which the shell keeps in an unexported variable: a child never sees it.
// The nonce arrives in $CORRAL_SHELL_NONCE and is taken out of the
// environment before anything else runs.

/** Shells corral knows how to hook. `sh` is any POSIX sh (dash on Debian). */
export type ShellKind = "bash" | "zsh" | "fish" | "sh";

/** The variable the nonce arrives in; each script unsets it first. */
export const NONCE_VARIABLE = "CORRAL_SHELL_NONCE";
/** Set for a `bash --norc`: the bash script came in through PROMPT_COMMAND. */
export const BASH_NORC_VARIABLE = "CORRAL_SHELL_NORC";
/** A `bash --norc`'s own PROMPT_COMMAND (it carries the bash script in), put back by the script. */
export const USER_PROMPT_COMMAND_VARIABLE = "CORRAL_SHELL_USER_PROMPT_COMMAND";
/** A POSIX shell's own $ENV, passed on so the script can source it. */
export const USER_ENV_VARIABLE = "CORRAL_SHELL_USER_ENV";
/** zsh's own ZDOTDIR (unset: $HOME), restored before the user's files are read. */
export const USER_ZDOTDIR_VARIABLE = "CORRAL_SHELL_USER_ZDOTDIR";
/**
 * A POSIX sh's prompts given in the environment, passed on under these
 * names: dash cannot take the export off PS1 or PS2 (unset keeps it), and
 * the hook adds the nonce to them.
 */
export const USER_PROMPT_VARIABLES = { PS1: "CORRAL_SHELL_USER_PS1", PS2: "CORRAL_SHELL_USER_PS2" } as const;

// printf formats shared by every shell (octal escapes: dash's printf has no \e).
const A = String.raw`\033]133;A;corral=%s;cwd=%s\007`;
const C = String.raw`\033]133;C;corral=%s\007`;
const D = String.raw`\033]133;D;%s;corral=%s\007`;

/**
 * bash: read through --rcfile, after the user's ~/.bashrc. A `bash --norc`
 * reads no startup file at all, --rcfile included: it gets this file from
 * PROMPT_COMMAND in its environment, at its first prompt (BASH_NORC_VARIABLE
 * set), and the user's own PROMPT_COMMAND back from USER_PROMPT_COMMAND_VARIABLE.
 */
export const BASH_RC = String.raw`# corral shell integration for bash (corral pty open --no-shell-integration leaves bash alone)
__corral_nonce=$CORRAL_SHELL_NONCE
unset CORRAL_SHELL_NONCE
if [[ -n $CORRAL_SHELL_NORC ]]; then
  # bash --norc: sourced by PROMPT_COMMAND at the first prompt; no startup file of the user's is read.
  unset CORRAL_SHELL_NORC
  if [[ -n $\{CORRAL_SHELL_USER_PROMPT_COMMAND+set} ]]; then PROMPT_COMMAND=$CORRAL_SHELL_USER_PROMPT_COMMAND; else unset PROMPT_COMMAND; fi
  unset CORRAL_SHELL_USER_PROMPT_COMMAND
  __corral_first_prompt=1
elif [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
__corral_prompt() {
  local __corral_status=$?
  printf '${D}${A}' "$__corral_status" "$__corral_nonce" "$__corral_nonce" "$PWD"
  return $__corral_status
}
if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
  PROMPT_COMMAND=(__corral_prompt "$\{PROMPT_COMMAND[@]}")
else
  PROMPT_COMMAND="__corral_prompt$\{PROMPT_COMMAND:+;$PROMPT_COMMAND}"
fi
PS0="$PS0\033]133;C;corral=$__corral_nonce\007"
PS1="$PS1\[\033]133;B;corral=$__corral_nonce\007\]"
PS2="\[\033]133;P;k=s;corral=$__corral_nonce\007\]$PS2"
# Taken out of the environment: a prompt that came in it (pty open --env PS1=...) now holds the nonce.
export -n PS0 PS1 PS2 PROMPT_COMMAND
# The first prompt of a bash --norc is being made: what PROMPT_COMMAND now says runs for it too.
if [[ -n $__corral_first_prompt ]]; then unset __corral_first_prompt; eval "$PROMPT_COMMAND"; fi
`.replaceAll("$\\{", "${");

export const ZSH_ENV = String.raw`# corral shell integration for zsh: the user's .zshenv, from the user's ZDOTDIR
__corral_nonce=$CORRAL_SHELL_NONCE
unset CORRAL_SHELL_NONCE
__corral_zdotdir=$ZDOTDIR
if [[ -n $CORRAL_SHELL_USER_ZDOTDIR ]]; then ZDOTDIR=$CORRAL_SHELL_USER_ZDOTDIR; else unset ZDOTDIR; fi
unset CORRAL_SHELL_USER_ZDOTDIR
[[ -f $\{ZDOTDIR:-$HOME}/.zshenv ]] && . $\{ZDOTDIR:-$HOME}/.zshenv
__corral_user_zdotdir=$\{ZDOTDIR-__corral_unset}
ZDOTDIR=$__corral_zdotdir
`.replaceAll("$\\{", "${");

export const ZSH_RC = String.raw`# corral shell integration for zsh (corral pty open --no-shell-integration leaves zsh alone)
if [[ $__corral_user_zdotdir == __corral_unset ]]; then unset ZDOTDIR; else ZDOTDIR=$__corral_user_zdotdir; fi
unset __corral_user_zdotdir __corral_zdotdir
[[ -f $\{ZDOTDIR:-$HOME}/.zshrc ]] && . $\{ZDOTDIR:-$HOME}/.zshrc
# zsh marks a partial last line (PROMPT_SP) before precmd runs: that would land
# in the command's output, so the finish mark goes first and the mark after it.
if [[ -o prompt_sp ]]; then setopt no_prompt_sp; __corral_sp=1; fi
__corral_precmd() {
  local __corral_status=$?
  printf '${D}' "$__corral_status" "$__corral_nonce"
  if [[ -n $__corral_sp ]]; then print -nP -- "$\{PROMPT_EOL_MARK-%B%S%#%s%b}"; printf '%*s\r \r' $((COLUMNS - 1)) ''; fi
  printf '${A}' "$__corral_nonce" "$PWD"
  return $__corral_status
}
__corral_preexec() { printf '${C}' "$__corral_nonce"; }
precmd_functions=(__corral_precmd $precmd_functions)
preexec_functions+=(__corral_preexec)
PS1="$PS1%{"$'\e'"]133;B;corral=$__corral_nonce"$'\a'"%}"
PS2="%{"$'\e'"]133;P;k=s;corral=$__corral_nonce"$'\a'"%}$PS2"
# Taken out of the environment: a prompt that came in it (pty open --env PS1=...) now holds the nonce.
typeset +x PS1 PS2
`.replaceAll("$\\{", "${");

/** fish: sourced by --init-command, after the user's config.fish. */
export const FISH_INIT = String.raw`# corral shell integration for fish (corral pty open --no-shell-integration leaves fish alone)
set -g __corral_nonce $CORRAL_SHELL_NONCE
set -e CORRAL_SHELL_NONCE
function __corral_preexec --on-event fish_preexec
  printf '${C}' $__corral_nonce
end
function __corral_postexec --on-event fish_postexec
  printf '${D}' $status $__corral_nonce
end
function __corral_prompt_start --on-event fish_prompt
  printf '${A}' $__corral_nonce $PWD
end
functions -q fish_prompt; and functions -c fish_prompt __corral_user_prompt
function fish_prompt
  functions -q __corral_user_prompt; and __corral_user_prompt
  printf '\033]133;B;corral=%s\007' $__corral_nonce
end
`;

/**
 * A POSIX sh (dash): no hook runs before a command, so `pty exec` types
 * `__corral_exec;` before the command line; the prompt's command
 * substitution prints the finish and prompt marks.
 */
export const SH_ENV = String.raw`# corral shell integration for a POSIX sh (corral pty open --no-shell-integration leaves it alone)
__corral_nonce=$CORRAL_SHELL_NONCE
unset CORRAL_SHELL_NONCE
# Prompts given in the environment, as the shell's own (not exported: the hook adds the nonce to them).
if [ -n "$\{CORRAL_SHELL_USER_PS1+set}" ]; then PS1=$CORRAL_SHELL_USER_PS1; unset CORRAL_SHELL_USER_PS1; fi
if [ -n "$\{CORRAL_SHELL_USER_PS2+set}" ]; then PS2=$CORRAL_SHELL_USER_PS2; unset CORRAL_SHELL_USER_PS2; fi
if [ -n "$CORRAL_SHELL_USER_ENV" ]; then ENV=$CORRAL_SHELL_USER_ENV; unset CORRAL_SHELL_USER_ENV; . "$ENV"; else unset ENV; fi
__corral_exec() { printf '${C}' "$__corral_nonce"; }
__corral_prompt() { printf '${D}${A}' "$1" "$__corral_nonce" "$__corral_nonce" "$PWD"; }
__corral_esc=$(printf '\033')
__corral_bel=$(printf '\007')
PS1='$(__corral_prompt "$?")'"$\{PS1-$ }$\{__corral_esc}]133;B;corral=$\{__corral_nonce}$\{__corral_bel}"
PS2="$\{__corral_esc}]133;P;k=s;corral=$\{__corral_nonce}$\{__corral_bel}$\{PS2-> }"
`.replaceAll("$\\{", "${");

/** What `pty exec` types before a command line for this shell (none where a hook prints the output mark). */
export function execPrefix(kind: ShellKind): string {
  return kind === "sh" ? "__corral_exec; " : "";
}
