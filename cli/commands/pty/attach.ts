// `corral pty attach`: a person takes over a session. The terminal goes to
// raw mode and is restored on every way out (detach key, program exit,
// agent gone, SIGTERM/SIGHUP, an exception); window size changes follow
// (the one terminal hold, cli/shared/terminal-hold.ts, as run --tty and fg).
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import type { SocketOnly } from "./flags.ts";
import { sessionOnly, withAgent } from "../../shared/agent-reach.ts";
import { describeExit } from "../../../lib/core/exit-words.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { TerminalHold, terminalSize } from "../../shared/terminal-hold.ts";
import type { AgentEvent } from "../../../lib/agent/protocol/operations.ts";
import { lostConnection } from "../../shared/connection-lost.ts";

/** C-\ (FS, 0x1c): rarely needed by programs, and what `dtach` uses. */
export const DETACH_BYTE = 0x1c;

/** Attaches this terminal until detach or exit. */
export async function ptyAttachAction(this: CorralContext, flags: SocketOnly, session: string): Promise<void> {
  // Without a terminal there is nothing to take over with: raw mode, the
  // window size and the detach key all need one. Said before the agent is asked.
  if (process.stdin.isTTY !== true) {
    this.process.stderr.write(`corral: pty attach needs a terminal on stdin (it is not one); from a script, use corral pty send ${session} and corral pty screen ${session}\n`);
    this.process.exitCode = ExitStatus.usage;
    return;
  }
  const stdout = process.stdout;
  await withAgent(this, flags, async (client) => {
    // Wired before the request: the screen's first paint (and the session's
    // next output) can arrive in the same read as the reply, over ssh or
    // --via more often than not, and is handed out before the reply's
    // await returns here. Held until the terminal is raw, then written.
    const early: Uint8Array[] = [];
    let earlyEvent: AgentEvent | null = null;
    client.onBytes = (bytes) => early.push(bytes);
    client.onEvent = (event) => (earlyEvent ??= event);
    await client.call({ op: "attach", session, ...terminalSize() });
    const hold = new TerminalHold();
    let outcome = "detached";
    try {
      await new Promise<void>((resolve) => {
        const finish = (why: string) => {
          outcome = why;
          resolve();
        };
        const ended = (event: AgentEvent) => finish(`exited (${describeExit(event.event === "exit" ? event.exit : null)})`);
        hold.rawMode();
        for (const bytes of early.splice(0)) stdout.write(bytes);
        client.onBytes = (bytes) => stdout.write(bytes);
        client.onEvent = ended;
        client.onClose = () => finish(outcome === "detached" ? "the agent closed the connection" : outcome);
        if (earlyEvent !== null) ended(earlyEvent);
        hold.readInput((chunk) => {
          const at = chunk.indexOf(DETACH_BYTE);
          if (at >= 0) {
            if (at > 0) client.sendBytes(chunk.subarray(0, at));
            finish("detached");
            return;
          }
          client.sendBytes(chunk);
        }, () => finish("detached (end of input)"));
        hold.followSize(({ cols, rows }) => client.sendResize(cols, rows));
        hold.on("SIGTERM", () => finish("detached (signal)"));
        hold.on("SIGHUP", () => finish("detached (signal)"));
      });
    } finally {
      await hold.release();
    }
    if (outcome === "the agent closed the connection") {
      // A remote call's transport cut: 255 and its own line; the session lives on there.
      const cause = await lostConnection(client);
      if (cause !== null) {
        this.process.stderr.write("\r\n");
        throw cause;
      }
    }
    this.process.stderr.write(`\r\ncorral: ${outcome} from session ${session}\n`);
    // The agent went away (stopped, killed): not a way out the person chose, and a script must tell it apart.
    if (outcome === "the agent closed the connection") this.process.exitCode = ExitStatus.failure;
  }, sessionOnly(this, session));
}
