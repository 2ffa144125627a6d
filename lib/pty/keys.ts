// Named keys to the bytes a terminal sends for them (DESIGN.md 4.5). Names
// follow tmux's send-keys spelling, case-insensitive, plus the spellings
// people type without thinking (Ctrl-C, ^C, ctrl+c). Runtime-neutral: no
// I/O, so the CLI can validate keys before it ever reaches the agent.
import { CorralError } from "../core/corral-error.ts";

/** Terminal modes that change what a key sends. */
export interface KeyModes {
  /** DECCKM set by the program (vim, less): cursor keys send ESC O x, not ESC [ x. */
  readonly applicationCursor: boolean;
}

/** An unknown key name; nothing was sent. */
export class UnknownKeyError extends CorralError {
  override readonly name = "UnknownKeyError";
  constructor(readonly key: string) {
    super("unknown_key", `unknown key ${JSON.stringify(key)}; use tmux names such as Enter, Tab, Escape, BSpace, Up, F1, C-c, M-x`);
  }
}

interface Modifiers {
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
}

// Keys whose xterm encoding is CSI/SS3 with a final letter (modifiable as CSI 1;m X).
const LETTER_KEYS: Record<string, string> = {
  up: "A", down: "B", right: "C", left: "D", home: "H", end: "F",
};
// F1-F4 are SS3 P..S unmodified, CSI 1;m P..S modified.
const SS3_KEYS: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" };
// Keys sent as CSI n ~ (CSI n;m ~ modified).
const TILDE_KEYS: Record<string, number> = {
  insert: 2, ic: 2, delete: 3, dc: 3, del: 3, pageup: 5, ppage: 5, pgup: 5, pagedown: 6, npage: 6, pgdn: 6,
  f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};
// Keys that are one plain byte.
const PLAIN_KEYS: Record<string, string> = {
  enter: "\r", return: "\r", tab: "\t", escape: "\x1b", esc: "\x1b", bspace: "\x7f", backspace: "\x7f", space: " ",
};

const MODIFIER = /^(c|ctrl|control|m|meta|alt|s|shift)[-+]/i;

/** The bytes for one key name; throws UnknownKeyError. */
export function encodeKey(name: string, modes: KeyModes): string {
  const mods: Modifiers = { ctrl: false, meta: false, shift: false };
  let rest = name;
  // "^C" is caret notation for C-c; "^" alone is the character.
  if (rest.length === 2 && rest.startsWith("^")) {
    mods.ctrl = true;
    rest = rest.slice(1);
  }
  for (let m = MODIFIER.exec(rest); m !== null && rest.length > m[0].length; m = MODIFIER.exec(rest)) {
    const word = (m[1] ?? "").toLowerCase();
    if (word.startsWith("c")) mods.ctrl = true;
    else if (word.startsWith("s")) mods.shift = true;
    else mods.meta = true;
    rest = rest.slice(m[0].length);
  }
  const encoded = encodeBase(rest, mods, modes);
  if (encoded === undefined) throw new UnknownKeyError(name);
  return encoded;
}

/** Throws UnknownKeyError for the first unknown name; for checking before sending anything. */
export function validateKeys(names: readonly string[]): void {
  for (const name of names) encodeKey(name, { applicationCursor: false });
}

/** The bytes for every key, in order; validates all names before returning anything. */
export function encodeKeys(names: readonly string[], modes: KeyModes): string {
  return names.map((name) => encodeKey(name, modes)).join("");
}

// xterm's modifier parameter: 1 + shift + 2*alt + 4*ctrl.
function modifierParam(mods: Modifiers): number {
  return 1 + (mods.shift ? 1 : 0) + (mods.meta ? 2 : 0) + (mods.ctrl ? 4 : 0);
}

function encodeBase(base: string, mods: Modifiers, modes: KeyModes): string | undefined {
  const lower = base.toLowerCase();
  const param = modifierParam(mods);
  const letter = LETTER_KEYS[lower] ?? SS3_KEYS[lower];
  if (letter !== undefined) {
    if (param > 1) return `\x1b[1;${param}${letter}`;
    if (SS3_KEYS[lower] !== undefined || modes.applicationCursor) return `\x1bO${letter}`;
    return `\x1b[${letter}`;
  }
  const tilde = TILDE_KEYS[lower];
  if (tilde !== undefined) return param > 1 ? `\x1b[${tilde};${param}~` : `\x1b[${tilde}~`;
  if (lower === "btab" || (lower === "tab" && mods.shift)) return withMeta("\x1b[Z", mods);
  const plain = PLAIN_KEYS[lower];
  if (plain !== undefined) {
    if (lower === "space" && mods.ctrl) return withMeta("\x00", mods);
    return withMeta(plain, mods);
  }
  const chars = [...base];
  if (chars.length !== 1) return undefined;
  let ch = chars[0] as string;
  if (mods.shift) ch = ch.toUpperCase();
  if (mods.ctrl) {
    const control = controlChar(ch);
    if (control === undefined) return undefined;
    ch = control;
  }
  return withMeta(ch, mods);
}

function withMeta(bytes: string, mods: Modifiers): string {
  return mods.meta ? `\x1b${bytes}` : bytes;
}

// C-a..C-z and the punctuation controls of a VT keyboard (C-@ C-[ C-\ C-] C-^ C-_ C-?).
function controlChar(ch: string): string | undefined {
  const upper = ch.toUpperCase();
  if (upper === "?") return "\x7f";
  if (upper === " ") return "\x00";
  const code = upper.charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code & 0x1f);
  return undefined;
}
