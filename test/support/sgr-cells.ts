// Reading text with SGR escapes back into cells (character + style), so
// that two spellings of the same colours compare equal: `\e[1m\e[31m` and
// `\e[0;1;31m`, `\e[38;5;1m` and `\e[31m`, a reset at the end of a line or
// not. State carries across lines, as in tmux's `capture-pane -e` output.
// Trailing spaces are dropped whatever their colour (capture-pane drops them).

export interface SgrStyle {
  fg: string;
  bg: string;
  flags: string;
}

export type SgrCell = string; // "char|fg|bg|flags"

const FLAG_OF: Record<number, string> = { 1: "b", 2: "d", 3: "i", 4: "u", 5: "k", 7: "r", 8: "h", 9: "s", 53: "o" };
const FLAG_OFF: Record<number, string> = { 22: "bd", 23: "i", 24: "u", 25: "k", 27: "r", 28: "h", 29: "s", 55: "o" };

function applySgr(params: number[], s: SgrStyle): void {
  if (params.length === 0) params = [0];
  for (let i = 0; i < params.length; i++) {
    const p = params[i] as number;
    if (p === 0) Object.assign(s, { fg: "", bg: "", flags: "" });
    else if (FLAG_OF[p] !== undefined) s.flags = [...new Set([...s.flags, FLAG_OF[p] as string])].sort().join("");
    else if (FLAG_OFF[p] !== undefined) s.flags = [...s.flags].filter((f) => !(FLAG_OFF[p] as string).includes(f)).join("");
    else if (p >= 30 && p <= 37) s.fg = `p${p - 30}`;
    else if (p >= 90 && p <= 97) s.fg = `p${p - 90 + 8}`;
    else if (p >= 40 && p <= 47) s.bg = `p${p - 40}`;
    else if (p >= 100 && p <= 107) s.bg = `p${p - 100 + 8}`;
    else if (p === 39) s.fg = "";
    else if (p === 49) s.bg = "";
    else if (p === 38 || p === 48) {
      const key = p === 38 ? "fg" : "bg";
      if (params[i + 1] === 5) {
        s[key] = `p${params[i + 2]}`;
        i += 2;
      } else if (params[i + 1] === 2) {
        s[key] = `#${[params[i + 2], params[i + 3], params[i + 4]].map((v) => (v ?? 0).toString(16).padStart(2, "0")).join("")}`;
        i += 4;
      }
    }
  }
}

/** Each line as cells; escapes other than SGR are an error (neither side should emit them). */
export function sgrCells(text: string): SgrCell[][] {
  const style: SgrStyle = { fg: "", bg: "", flags: "" };
  const lines = text.replace(/\n$/, "").split("\n");
  return lines.map((line) => {
    const cells: SgrCell[] = [];
    for (let i = 0; i < line.length; i++) {
      const ch = line[i] as string;
      if (ch === "\x1b") {
        // deno-lint-ignore no-control-regex -- escapes are what is read
        const match = /^\x1b\[([0-9;:]*)m/.exec(line.slice(i));
        if (match === null) throw new Error(`unexpected escape in ${JSON.stringify(line.slice(i, i + 12))}`);
        applySgr((match[1] ?? "").split(/[;:]/).filter((x) => x !== "").map(Number), style);
        i += match[0].length - 1;
        continue;
      }
      const code = line.codePointAt(i) as number;
      const char = String.fromCodePoint(code);
      if (code > 0xffff) i++;
      cells.push(`${char}|${style.fg}|${style.bg}|${style.flags}`);
    }
    while (cells.length > 0 && (cells[cells.length - 1] as string).startsWith(" |")) cells.pop();
    return cells;
  });
}
