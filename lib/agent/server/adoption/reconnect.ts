// Reaching a guardian a previous agent left (issue 11): its record names the
// socket and the token; the guardian is verified (pid and start time in
// /proc, then the pid and the child it reports) before anything is trusted,
// and its raw tail is gathered in full before the caller rebuilds.
import { connectGuardian, type AdoptFacts, type Guardian, type StreamId, type WelcomeEvent } from "../../../supervise/reconnect.ts";
import type { GuardianRecord } from "../../../supervise/guardian-records.ts";
import { stillRuns } from "../../../proc/identity.ts";

/** How long a guardian may take to answer its token and send its tail. */
const ANSWER_MS = 10_000;

/** Why a recorded guardian cannot be re-adopted; the message is the reason reported. */
export class LostGuardian extends Error {
  override readonly name = "LostGuardian";
}

/** A re-adopted guardian: the connection, what it reported, and its raw tail per stream. */
export interface Reconnected {
  readonly guardian: Guardian;
  readonly welcome: WelcomeEvent;
  readonly adopt: AdoptFacts;
  readonly backlog: ReadonlyMap<StreamId, Uint8Array>;
}

/**
 * Connects and verifies; `wire` is called with the connection before any
 * event is read (a handle that must see every live byte listens there).
 * Throws LostGuardian with the reason when the guardian is gone or not the one recorded.
 */
export async function reconnect(record: GuardianRecord, wire: (guardian: Guardian) => void = () => {}): Promise<Reconnected> {
  if (!stillRuns(record.guardian)) throw new LostGuardian(`its guardian (pid ${record.guardian.pid}) is gone`);
  const guardian = connectGuardian(record.socket, record.token);
  wire(guardian);
  const chunks = new Map<StreamId, Uint8Array[]>();
  const got = new Map<StreamId, number>();
  let want: Map<StreamId, number> | undefined;
  let complete: () => void = () => {};
  const tailDone = new Promise<void>((resolve) => (complete = resolve));
  const check = () => {
    if (want !== undefined && [...want].every(([s, n]) => (got.get(s) ?? 0) >= n)) complete();
  };
  guardian.on("backlog", (stream, bytes) => {
    chunks.set(stream, [...(chunks.get(stream) ?? []), bytes.slice()]);
    got.set(stream, (got.get(stream) ?? 0) + bytes.length);
    check();
  });
  try {
    const welcome = await within(guardian.ready, "its guardian did not answer");
    if (welcome.pid !== record.guardian.pid) throw new LostGuardian(`the socket is answered by pid ${welcome.pid}, not the recorded guardian ${record.guardian.pid}`);
    const child = welcome.child;
    if (record.child !== null && (child === undefined || child.pid !== record.child.pid || child.startTime !== record.child.startTime)) {
      throw new LostGuardian(`its guardian reports another child than the recorded pid ${record.child.pid}`);
    }
    if (welcome.adopt === undefined) throw new LostGuardian("its guardian cannot be re-adopted (started without --adoptable)");
    want = new Map(welcome.adopt.streams.map((s) => [s.stream, s.buffered]));
    check();
    await within(tailDone, "its guardian did not send its whole tail");
    const backlog = new Map<StreamId, Uint8Array>();
    for (const [stream, parts] of chunks) backlog.set(stream, concat(parts));
    return { guardian, welcome, adopt: welcome.adopt, backlog };
  } catch (error) {
    guardian.detach();
    if (error instanceof LostGuardian) throw error;
    throw new LostGuardian(`its guardian did not take the token: ${(error as Error).message}`);
  }
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new LostGuardian(`${what} within ${ANSWER_MS} ms`)), ANSWER_MS)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
