// Every session the agent opens on an adoptable guardian is written down in
// the state dir (0600, beside the jobs' records): what a new agent needs to
// find the guardian again and rebuild the session under the same id and
// name (issue 11). The size and the output position are not recorded: the
// guardian itself reports them when it is re-adopted, so they are never stale.
import process from "node:process";
import type { GuardianLink } from "../../supervise/handle.ts";
import { removeRecord, writeRecord, type GuardianRecord } from "../../supervise/guardian-records.ts";
import { identityOf } from "../../proc/identity.ts";
import type { SessionEntry } from "./session-registry.ts";
import { keepSessionEnd } from "./session-ends.ts";

/** Writes the session's record and forgets it once the session's program has ended and the session closed. */
export function recordSession(stateDir: string, entry: SessionEntry, link: GuardianLink, term: string): void {
  const guardian = identityOf(link.guardianPid);
  const owner = identityOf(process.pid);
  if (guardian === undefined || owner === undefined) {
    keepSessionEnd(stateDir, entry, term);
    return;
  }
  const record: GuardianRecord = {
    guardian,
    owner,
    child: link.child,
    socket: link.socket,
    token: link.token,
    argv: entry.session.argv,
    job: null,
    recordedAt: Date.now(),
    adoptable: true,
    session: { id: entry.id, name: entry.name, scrollback: entry.scrollback, term, createdAt: entry.session.startedAt, ...shellOf(entry) },
  };
  writeRecord(stateDir, record);
  forgetAtExit(stateDir, entry, link.guardianPid, term);
}

// The hooked shell's nonce: a new agent reads the marks in the replayed tail with it.
function shellOf(entry: SessionEntry): { shell?: { kind: "bash" | "zsh" | "fish" | "sh"; nonce: string } } {
  const hook = entry.session.shellHook?.();
  return hook === undefined ? {} : { shell: { kind: hook.kind, nonce: hook.nonce } };
}

/**
 * The exit facts are the agent's once the program ended (the guardian will
 * not wait for anyone else): they are written down as the session's end
 * (session-ends.ts) before the guardian's record goes, so an agent that
 * dies in between leaves the next one either.
 */
export function forgetAtExit(stateDir: string, entry: SessionEntry, guardianPid: number, term: string): void {
  keepSessionEnd(stateDir, entry, term, () => removeRecord(stateDir, guardianPid));
}
