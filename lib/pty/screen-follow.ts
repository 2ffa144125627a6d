// Following a session without driving it (`pty view`): the screen as it is,
// drawn on a blank terminal, then every later byte and size change, with
// nothing lost or repeated between the drawing and the stream.
import { redrawSequence } from "./screen-ansi.ts";
import type { PtySession } from "./session.ts";

/** What a follower gets first, and how it stops. */
export interface FollowStart {
  readonly redraw: string;
  readonly cols: number;
  readonly rows: number;
  readonly stop: () => void;
}

/** Subscribes at a moment when the screen holds every byte handed out so far. */
export function followScreen(
  session: PtySession,
  onBytes: (bytes: Uint8Array) => void,
  onResize: (cols: number, rows: number) => void,
): Promise<FollowStart> {
  return session.atSettledScreen((snapshot, styles) => {
    const offs = [session.onOutput(onBytes), session.onResize(onResize)];
    return {
      redraw: redrawSequence(styles, snapshot),
      cols: snapshot.size.cols,
      rows: snapshot.size.rows,
      stop: () => offs.forEach((off) => off()),
    };
  });
}
