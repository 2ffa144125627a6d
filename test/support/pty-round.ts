// One round of a terminal session, as the README's quick start drives one:
// open, send, wait, screen, close. The install tests run it through each
// documented way of installing corral, with whatever starts that copy.
import assert from "node:assert/strict";

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Drives one `cat` session through `corral` (a function running one corral command line). */
export function ptyRound(corral: (args: readonly string[]) => CliResult, what: string): void {
  const ok = (args: readonly string[]): string => {
    const r = corral(args);
    assert.equal(r.code, 0, `${what}: corral ${args.join(" ")}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  ok(["pty", "open", "--name", "round", "--rows", "5", "--", "cat"]);
  const at = JSON.parse(ok(["pty", "send", "round", "typed-into-cat", "--key", "Enter", "--json"])).at;
  // The terminal's echo of the line comes first, then cat's copy: the second wait starts after the first's match.
  const echo = JSON.parse(ok(["pty", "wait", "round", "--after", String(at), "--regex", "^typed-into-cat$", "--timeout", "60s", "--json"]));
  assert.equal(echo.fired, "regex");
  assert.equal(ok(["pty", "wait", "round", "--after", String(echo.match.position), "--regex", "^typed-into-cat$", "--timeout", "60s"]).trim(), "regex");
  assert.match(ok(["pty", "screen", "round"]), /^typed-into-cat\ntyped-into-cat\n/);
  ok(["pty", "close", "round"]);
}
