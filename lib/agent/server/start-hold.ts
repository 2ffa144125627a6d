// One agent starts on a socket at a time, held by the agent itself. Clients
// take a start lock before they spawn an agent (auto-start.ts), but that lock
// is the client's: a client SIGKILLed while its agent still starts leaves a
// lock whose holder is dead, the next client breaks it and spawns a second
// agent, and both re-adopt the guardians the dead agent left, each taking
// some, before one of them fails to bind (seen in a chaos run: sessions and
// jobs vanished with the loser). So an agent holds this file (O_EXCL, its own
// pid) from before it probes the old socket until it is bound, and a second
// agent waits for it; that one then finds the first serving and stops
// without having touched a guardian.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { agentPaths } from "../client/agent-paths.ts";
import process from "node:process";

/** Longest one agent may hold the start (re-adopting many guardians on a loaded machine). */
const HOLD_LIMIT_MS = 120_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function holderGone(file: string): boolean {
  try {
    if (Date.now() - statSync(file).mtimeMs > HOLD_LIMIT_MS) return true;
    const holder = Number(readFileSync(file, "utf8").trim());
    if (!Number.isInteger(holder) || holder <= 0) return Date.now() - statSync(file).mtimeMs > 1000;
    process.kill(holder, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function holderOf(file: string): string {
  try {
    return `pid ${readFileSync(file, "utf8").trim()}`;
  } catch {
    return "pid unknown";
  }
}

/** Waits for the start hold beside `socket`; returns its release. */
export async function holdStart(socket: string, log: (line: string) => void): Promise<() => void> {
  const file = agentPaths(socket).starting;
  const deadline = Date.now() + HOLD_LIMIT_MS;
  let said = false;
  for (;;) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return () => {};
      if (holderGone(file)) rmSync(file, { force: true });
      else if (Date.now() > deadline) return () => {};
      else {
        if (!said) log(`another agent (${holderOf(file)}) is starting on this socket; waiting until it serves`);
        said = true;
        await pause(25);
      }
    }
  }
}
