// The screen budget charges what the screens hold, not what they could hold
// (a session at the default size and scrollback could hold 80 x 2024 cells,
// and charging that allowed only 98 sessions an agent). Screens grow as their
// programs write, so when the total passes the budget (checked before an
// open or a resize, and on the agent's idle tick) memory is taken back from
// the least recently active sessions first: idle emulators that can be
// rebuilt from their history are dropped (nothing lost), then the oldest
// scrollback lines go, which the session's screen then reports
// (`scrollbackTrimmed`).
import type { SessionEntry, SessionRegistry } from "./session-registry.ts";

/** Frees cells until `wanted` more fit in `budget` (or nothing more can be freed); returns the cells in use after. */
export function makeScreenRoom(registry: SessionRegistry, wanted: number, budget: number, except?: SessionEntry): number {
  let inUse = registry.screenCells(except);
  if (inUse + wanted <= budget) return inUse;
  const order = registry.all()
    .filter((entry) => entry !== except && entry.session.relieve !== undefined)
    .sort((a, b) => (a.session.lastActive?.() ?? 0) - (b.session.lastActive?.() ?? 0));
  // Lossless first, everywhere; then the oldest scrollback, least active first.
  for (const mayTrim of [false, true]) {
    for (const entry of order) {
      const short = inUse + wanted - budget;
      if (short <= 0) return inUse;
      inUse -= entry.session.relieve?.(short, mayTrim) ?? 0;
    }
  }
  return inUse;
}
