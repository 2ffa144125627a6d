// `corral pty attach`: a person takes over a session. The terminal goes to
// raw mode and is restored on every way out (detach key, program exit,
// agent gone, SIGTERM/SIGHUP, an exception); window size changes follow.
import process from "node:process";
import type { CorralContext } from "./context.ts";
import type { SocketOnly } from "./pty-flags.ts";
import { withAgent } from "./agent-reach.ts";
import { describeExit } from "./pty-describe.ts";

/** C-\ (FS, 0x1c): rarely needed by programs, and what `dtach` uses. */
export const DETACH_BYTE = 0x1c;

/** Attaches this terminal until detach or exit. */
export async function ptyAttachAction(this: CorralContext, flags: SocketOnly, session: string): Promise<void> {
  const stdin = process.stdin;
  const stdout = process.stdout;
  await withAgent(this, flags, async (client) => {
    const size = () => ({ cols: stdout.columns || 80, rows: stdout.rows || 24 });
    await client.call({ op: "attach", session, ...size() });
    const wasRaw = stdin.isTTY ? stdin.isRaw : false;
    const restore = () => {
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
    };
    let outcome = "detached";
    let cleanup: () => void = () => {};
    await new Promise<void>((resolve) => {
      const finish = (why: string) => {
        outcome = why;
        resolve();
      };
      if (stdin.isTTY) stdin.setRawMode(true);
      const onInput = (chunk: Uint8Array) => {
        const at = chunk.indexOf(DETACH_BYTE);
        if (at >= 0) {
          if (at > 0) client.sendBytes(chunk.subarray(0, at));
          finish("detached");
          return;
        }
        client.sendBytes(chunk);
      };
      const onResize = () => {
        const { cols, rows } = size();
        client.sendResize(cols, rows);
      };
      const onSignal = () => finish("detached (signal)");
      client.onBytes = (bytes) => stdout.write(bytes);
      client.onEvent = (event) => finish(`exited: ${describeExit(event.event === "exit" ? event.exit : null)}`);
      client.onClose = () => finish(outcome === "detached" ? "the agent closed the connection" : outcome);
      stdin.on("data", onInput);
      stdin.on("end", () => finish("detached (end of input)"));
      stdout.on("resize", onResize);
      process.on("SIGTERM", onSignal);
      process.on("SIGHUP", onSignal);
      process.on("exit", restore);
      cleanup = () => {
        stdin.off("data", onInput);
        stdout.off("resize", onResize);
        process.off("SIGTERM", onSignal);
        process.off("SIGHUP", onSignal);
        process.off("exit", restore);
      };
    }).finally(() => {
      cleanup();
      restore();
      stdin.pause();
    });
    this.process.stderr.write(`\r\ncorral: ${outcome} from session ${session}\n`);
  });
}
