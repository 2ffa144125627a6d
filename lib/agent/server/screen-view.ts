// The screen reply (`pty screen --json`, connect's screen): the session's
// own snapshot (its liveness and exit facts read with the screen) plus who
// it is. Built field by field to keep the key order `pty screen --json` prints.
import type { RecordingStatus, ScreenView } from "../protocol/messages.ts";
import type { ScreenOptions } from "./session-port.ts";
import type { SessionEntry } from "./session-registry.ts";

/** Reads the screen of one session as the wire shape. */
export async function screenView(entry: SessionEntry, options: ScreenOptions): Promise<ScreenView> {
  const screen = await entry.session.screen(options);
  // Read after the screen settled: every byte up to here is on it.
  const position = entry.session.position();
  return {
    id: entry.id,
    name: entry.name,
    lines: screen.lines,
    ...(screen.scrollback !== undefined ? { scrollback: screen.scrollback } : {}),
    size: screen.size,
    cursor: screen.cursor,
    alternateScreen: screen.alternateScreen,
    title: screen.title,
    hash: screen.hash,
    changed: screen.changed,
    alive: screen.alive,
    exit: screen.exit,
    position,
    foreground: await foregroundOf(entry),
    ...(screen.styles !== undefined ? { styles: screen.styles } : {}),
    ...(screen.approximate === true ? { approximate: true } : {}),
    ...(screen.scrollbackTrimmed !== undefined ? { scrollbackTrimmed: screen.scrollbackTrimmed } : {}),
    ...recordingOf(entry),
    ...shellOf(entry),
  };
}

// Present for a hooked shell: where it is and what it last ran.
function shellOf(entry: SessionEntry): Pick<ScreenView, "cwd" | "lastCommand"> {
  const view = entry.session.shellView?.() ?? null;
  if (view === null) return {};
  const last = view.lastCommand;
  return { cwd: view.cwd, lastCommand: last === null ? null : { line: last.line, status: last.status, at: last.at } };
}

/** The foreground process of a running session, when the session can tell. */
export async function foregroundOf(entry: SessionEntry): Promise<ScreenView["foreground"]> {
  if (!entry.session.alive() || entry.session.foreground === undefined) return null;
  return await entry.session.foreground();
}

// Present once the session has had a recording: a script can see it stopped at --record-max.
function recordingOf(entry: SessionEntry): { recording?: RecordingStatus } {
  const status = entry.session.recording?.() ?? null;
  return status === null ? {} : { recording: status };
}
