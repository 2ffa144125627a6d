// Playing a recording back as a person would (`asciinema cat`), into a
// headless xterm of the recorded size, to compare with the screen corral
// had at the end. asciinema 2.x `cat` opens /dev/tty, so it runs under
// `script` (util-linux, in every Debian) to have a terminal.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import xterm from "@xterm/headless";
import { visibleRuns, type StyleRun } from "../../lib/pty/screen-styles.ts";

export const haveAsciinema = spawnSync("asciinema", ["--version"]).status === 0 && spawnSync("script", ["--version"]).status === 0;

export interface CastFile {
  readonly header: { version: number; width: number; height: number; timestamp: number; env: { TERM: string }; title: string };
  readonly events: [number, string, string][];
  readonly text: string;
}

/** The header and events of a .cast file (every line must be JSON). */
export function readCast(file: string): CastFile {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").filter((line) => line !== "");
  const [header, ...events] = lines.map((line) => JSON.parse(line));
  return { header, events, text };
}

/** What `asciinema cat FILE` prints. */
export function asciinemaCat(file: string): Buffer {
  return execFileSync("script", ["-qec", `asciinema cat '${file.replaceAll("'", "'\\''")}'`, "/dev/null"], {
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
}

export interface PlayedScreen {
  readonly rows: string[];
  readonly styles: StyleRun[][];
  readonly cursor: { row: number; col: number };
}

/** Feeds `bytes` to a fresh terminal of the given size and reads its screen. */
export async function playInto(bytes: Uint8Array, cols: number, rows: number): Promise<PlayedScreen> {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  await new Promise<void>((resolve) => term.write(bytes, resolve));
  const buffer = term.buffer.active;
  const text: string[] = [];
  for (let y = 0; y < rows; y++) text.push((buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? "").replace(/ +$/, ""));
  const screen = { rows: text, styles: visibleRuns(term), cursor: { row: buffer.cursorY, col: buffer.cursorX } };
  term.dispose();
  return screen;
}
