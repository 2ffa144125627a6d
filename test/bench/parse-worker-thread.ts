// The worker side of parse-workers.bench.ts (issue 9: would parsing on
// worker threads gain on this machine?). A worker owns the flooding terminals
// it is given, parses the bytes the main thread transfers to it, acknowledges
// each parsed write (the main thread counts throughput and applies flow
// control from those), and answers screen reads by message. The terminal is
// built here too, for both threads, so every variant parses into the same
// terminal the agent builds (lib/pty/screen-emulator.ts).
import { parentPort, workerData } from "node:worker_threads";
import { Emulator, loadTerminal } from "../../lib/pty/screen-emulator.ts";
import { DEFAULT_SCROLLBACK } from "../../lib/pty/screen-size.ts";

/** The agent's terminal for a session (80x24, default scrollback, its hooks), replies dropped. */
export async function agentEmulator(): Promise<Emulator> {
  return new Emulator(await loadTerminal(), 80, 24, DEFAULT_SCROLLBACK, { onReply: () => {}, onParsed: () => {} });
}

/** All rows of the visible screen as text, as a screen read takes them. */
export function screenText(emulator: Emulator): string {
  const buffer = emulator.term.buffer.active;
  const rows: string[] = [];
  for (let i = 0; i < emulator.term.rows; i++) rows.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
  return rows.join("\n");
}

/** Main thread to worker. */
export type ToParseWorker =
  | { readonly kind: "open"; readonly stream: number }
  | { readonly kind: "bytes"; readonly stream: number; readonly bytes: Uint8Array }
  | { readonly kind: "screen"; readonly stream: number; readonly ask: number }
  | { readonly kind: "close" };

/** Worker to main thread. */
export type FromParseWorker =
  | { readonly kind: "opened"; readonly stream: number }
  | { readonly kind: "parsed"; readonly stream: number; readonly bytes: number }
  | { readonly kind: "screen"; readonly ask: number; readonly text: string };

/** Marks the worker role, so importing this file for agentEmulator starts nothing. */
export const PARSE_WORKER_ROLE = "corral-parse-worker";

const port = parentPort;
if (port !== null && (workerData as { role?: string } | null)?.role === PARSE_WORKER_ROLE) {
  const emulators = new Map<number, Emulator>();
  const post = (message: FromParseWorker) => port.postMessage(message);
  port.on("message", async (message: ToParseWorker) => {
    switch (message.kind) {
      case "open":
        emulators.set(message.stream, await agentEmulator());
        post({ kind: "opened", stream: message.stream });
        break;
      case "bytes": {
        const { stream, bytes } = message;
        emulators.get(stream)?.term.write(bytes, () => post({ kind: "parsed", stream, bytes: bytes.length }));
        break;
      }
      case "screen": {
        const emulator = emulators.get(message.stream);
        post({ kind: "screen", ask: message.ask, text: emulator === undefined ? "" : screenText(emulator) });
        break;
      }
      case "close":
        for (const emulator of emulators.values()) emulator.dispose();
        emulators.clear();
        port.close();
        break;
    }
  });
}
