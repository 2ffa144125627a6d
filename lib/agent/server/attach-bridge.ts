// The attach mode of a connection: the session's output goes out as raw
// byte frames, byte frames coming in are typed into the session, JSON
// frames carry window-size changes. Detaching (the client closing) leaves
// the session running.
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { bytesFrame, Tag, type Frame } from "../protocol/frames.ts";
import type { AttachExitEvent } from "../protocol/operations.ts";
import { parseAttachedFrame } from "../protocol/validation.ts";
import { clampSize } from "./agent-context.ts";
import type { SessionEntry } from "./session-registry.ts";

/** A person's terminal that cannot keep up is detached rather than buffered without bound. */
const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

/** Wires one attached connection to one session. */
export class AttachBridge {
  #unsubscribe: Array<() => void> = [];

  constructor(readonly entry: SessionEntry, readonly socket: Socket, onExit: (event: AttachExitEvent) => void) {
    const { session } = entry;
    void this.#paintCurrentScreen();
    this.#unsubscribe.push(session.onOutput((bytes) => {
      if (socket.destroyed) return;
      if (socket.writableLength > MAX_UNSENT_BYTES) {
        socket.destroy();
        return;
      }
      socket.write(bytesFrame(bytes));
    }));
    this.#unsubscribe.push(session.onExit((exit) => {
      this.detach();
      onExit({ event: "exit", exit });
    }));
  }

  /** Bytes typed by the person, or a resize of their window. */
  onFrame(frame: Frame): void {
    const { session } = this.entry;
    if (frame.tag === Tag.bytes) {
      if (session.alive()) void session.write(frame.body).catch(() => {});
      return;
    }
    // A garbled control frame from an attached terminal is ignored, not fatal.
    const message = parseAttachedFrame(frame.body);
    if (message?.op === "attach-resize" && session.alive()) session.resize(clampSize(message.cols), clampSize(message.rows));
  }

  detach(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  /**
   * Shows the screen as it is now (plain text, cursor placed), so the person
   * sees something before the program next draws; the resize that usually
   * comes with attach makes full-screen programs redraw themselves.
   */
  async #paintCurrentScreen(): Promise<void> {
    const screen = await this.entry.session.screen({ peek: true });
    const body = screen.lines.map((line, row) => `\x1b[${row + 1};1H${line}`).join("");
    const paint = `\x1b[H\x1b[2J${body}\x1b[${screen.cursor.row + 1};${screen.cursor.col + 1}H`;
    if (!this.socket.destroyed) this.socket.write(bytesFrame(Buffer.from(paint, "utf8")));
  }
}
