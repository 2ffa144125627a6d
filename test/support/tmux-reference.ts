// tmux as the reference terminal for the terminal-fidelity tests: a private
// server, one window `t` with the status line off, the same TERM corral
// gives its children, UTF-8 forced (-u) so widths do not depend on the
// caller's locale. Killed by the test's after hook.
import { execFileSync } from "node:child_process";

export class TmuxReference {
  readonly socket = `corraltest-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-u", "-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  start(argv: readonly string[], options: { cols: number; rows: number; cwd: string; history?: number; env?: Record<string, string> }): void {
    const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
    this.tmux(
      "start-server", ";",
      "set", "-g", "status", "off", ";",
      "set", "-g", "default-terminal", "xterm-256color", ";",
      "set", "-g", "history-limit", String(options.history ?? 2000), ";",
      "new-session", "-d", "-s", "t", "-x", String(options.cols), "-y", String(options.rows), "-c", options.cwd,
      "--", ...(env.length > 0 ? ["env", ...env] : []), ...argv,
    );
  }

  keys(...names: string[]): void {
    this.tmux("send-keys", "-t", "t", ...names);
  }

  text(literal: string): void {
    this.tmux("send-keys", "-t", "t", "-l", "--", literal);
  }

  resize(cols: number, rows: number): void {
    this.tmux("resize-window", "-t", "t", "-x", String(cols), "-y", String(rows));
  }

  /** Visible rows, trailing spaces and trailing empty rows dropped (as capture-pane does). */
  capture(): string[] {
    return normalizeRows(this.tmux("capture-pane", "-p", "-t", "t").split("\n"));
  }

  cursor(): { row: number; col: number } {
    const [col, row] = this.tmux("display", "-p", "-t", "t", "#{cursor_x},#{cursor_y}").trim().split(",").map(Number);
    return { row: row ?? -1, col: col ?? -1 };
  }

  kill(): void {
    try {
      this.tmux("kill-server");
    } catch {
      // already gone
    }
  }
}

/** Trailing spaces and trailing empty rows dropped: what capture-pane prints. */
export function normalizeRows(rows: readonly string[]): string[] {
  const out = rows.map((row) => row.replace(/ +$/, ""));
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}
