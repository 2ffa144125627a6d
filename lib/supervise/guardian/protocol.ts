// The guardian's whole surface in one typed module (native/guardian.h is its
// C twin): how it is started (argv), the frames both ways, the events and
// the terminate receipt. Runtime-neutral: no I/O here, only shapes and codecs.
// Bump GUARDIAN_PROTOCOL_VERSION here and in native/guardian.h together.
// Longer than 300 lines because the whole surface (argv, frames, events) is one typed module, as guardian.h is in C.

/** Protocol version; the guardian's welcome carries it. */
export const GUARDIAN_PROTOCOL_VERSION = 7;

/** Largest frame the guardian accepts from its owner (its --max-payload default). */
export const GUARDIAN_MAX_REQUEST_PAYLOAD = 1024 * 1024;
/** Largest frame the owner accepts from the guardian (receipts may list thousands of pids). */
export const GUARDIAN_MAX_EVENT_PAYLOAD = 8 * 1024 * 1024;

/** Environment variable carrying the owner's token (environ is private to the user; argv is not). */
export const GUARDIAN_TOKEN_ENV = "CORRAL_GUARDIAN_TOKEN";

/** Request tags, owner -> guardian. */
export const Req = {
  auth: 0x01,
  input: 0x02,
  resize: 0x03,
  signal: 0x04,
  closeStdin: 0x05,
  terminate: 0x06,
  release: 0x07,
  shutdown: 0x08,
} as const;

/** Event tags, guardian -> owner. */
export const Ev = {
  welcome: 0x41,
  started: 0x42,
  output: 0x43,
  eof: 0x44,
  stopped: 0x45,
  continued: 0x46,
  exited: 0x47,
  spawnFailed: 0x48,
  reply: 0x49,
  receipt: 0x4a,
  error: 0x4b,
  tail: 0x4c,
  spilled: 0x4d,
  fault: 0x4e,
  backlog: 0x50,
  /** u8 stream, u64 total, u64 line feeds, then the last bytes kept past the head: a captured stream so far. */
  progress: 0x4f,
  /** u32: bytes of input the child took (or that were dropped) since the last one; the owner's credit (v4). */
  inputTaken: 0x58,
} as const;

/** Output streams as numbered on the wire (a PTY's output is stream 1). */
export type StreamId = 1 | 2;

/** Who a signal request reaches. */
export const SignalTarget = { child: 0, foreground: 1, tree: 2 } as const;
export type SignalTargetName = keyof typeof SignalTarget;

/** What the child's fd 0/1/2 are, in pipe mode. `stdout` (stderr only) merges stderr into the stdout pipe. */
export type StdioChoice = "pipe" | "inherit" | "null";

/**
 * A stream's kept head and tail (a capture or a spill), as the guardian keeps
 * them. Lines (v7, a capture only): the head ends after its headLines-th
 * line, the tail is the last tailLines lines, when those are shorter than the
 * byte limits.
 */
export interface KeptLimits {
  readonly headBytes: number;
  readonly tailBytes: number;
  readonly headLines?: number;
  readonly tailLines?: number;
}

/** How a guardian is started: everything that becomes its argv. */
export interface GuardianLaunch {
  /** Literal argv of the child; argv[0] is looked up in the child's PATH unless `file` is given. */
  readonly argv: readonly string[];
  /** The program to exec (already resolved by the owner); argv[0] is then passed as given. */
  readonly file?: string;
  readonly mode: "pipe" | "pty";
  readonly cwd?: string;
  readonly stdin?: StdioChoice;
  readonly stdout?: StdioChoice;
  readonly stderr?: StdioChoice | "stdout";
  /** Clamped to 1..1000 by the guardian; default 24x80. */
  readonly rows?: number;
  readonly cols?: number;
  /** Time to wait for the owner to reconnect after losing it (default 0: clean up at once). */
  readonly lingerMs?: number;
  /** PTY drain after the child exits, until EOF/EIO or this long (default 500). */
  readonly drainMs?: number;
  /** Grace of the terminate run when the lifeline is lost or the guardian gets SIGTERM (default 2000). */
  readonly graceMs?: number;
  /** The guardian exits when no owner authenticated by then (default 10000). */
  readonly connectTimeoutMs?: number;
  /** Pipe mode: the child in a new process group (default) or the caller's (`inherit`, for a real terminal). */
  readonly pgid?: "new" | "inherit";
  /** collect's fast path: the guardian writes the stream to this file itself. */
  readonly spillStdout?: string;
  readonly spillStderr?: string;
  /**
   * The spill file is the child's stdout/stderr itself (no pipe: as fast as
   * `cat > F`). Head, tail and size are read back from the file when the
   * child exits, and again after a terminate if a grandchild kept writing;
   * the last `spilled` event wins. No live output for that stream.
   */
  readonly spillDirect?: boolean;
  /**
   * collect's plain fast path (native/capture.c): the guardian frames only
   * the first headBytes of the stream, keeps its last tailBytes and counts its
   * line feeds itself, and at EOF sends the tail and a `spilled` event
   * (captured: true) with the counts. With a spill file as well, the stream is
   * read rather than spliced, so `spilled` carries lineFeeds too.
   */
  readonly captureStdout?: boolean;
  readonly captureStderr?: boolean;
  /**
   * collect --live: a descriptor of ours the guardian also writes every byte
   * of the captured stream to (tee). It gets it as TEE_STDOUT_FD/TEE_STDERR_FD.
   */
  readonly teeStdout?: number;
  readonly teeStderr?: number;
  /** With a spill file or a capture: bytes framed live from the start, and bytes kept from the end, for both streams. */
  readonly headBytes?: number;
  readonly tailBytes?: number;
  /** The same for one stream, over headBytes/tailBytes (v6: each stream its own limits; v7: and lines). */
  readonly keptStdout?: KeptLimits;
  readonly keptStderr?: KeptLimits;
  /**
   * Losing the owner does not end the child (native/orphan.c): the guardian
   * keeps reading its output into a bounded raw tail and waits for a new
   * owner with the same token (a restarted agent re-adopts it).
   */
  readonly adoptable?: boolean;
  /** Adoptable: how long to wait for a new owner while the child lives (default 0: as long as it lives). */
  readonly orphanWaitMs?: number;
  /** Adoptable: how long exit facts wait for a new owner once the child is gone (default 600000). */
  readonly exitWaitMs?: number;
  /** Adoptable: raw tail bytes kept per stream (default 1 MiB). */
  readonly orphanBufferBytes?: number;
  /**
   * Adoptable (v5): a job's spill file, created empty by the owner, to which
   * the guardian appends every byte of stream 1 itself before framing it
   * (native/job-spill.c): no owner's death costs a byte of it.
   */
  readonly jobSpill?: string;
  /** Extra environment for the child; by default it gets the owner's environment as given in `env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Where the guardian finds the tee descriptors (after descriptor 3: the ready line, or the owner's connection). */
export const TEE_STDOUT_FD = 4;
export const TEE_STDERR_FD = 5;

/**
 * How the owner reaches a guardian: a socket it listens on (and says on
 * `readyFd` when it does), which a restarted agent can reconnect to; or the
 * socket pair it inherits as `ownerFd`, already connected (run and collect,
 * whose guardian nothing reconnects to); or, where no descriptor past 2 can
 * be passed (Deno), the owner's private listener it connects to itself,
 * `ownerConnect` (lib/runtime/deno/guardian-spawn.ts).
 */
export type GuardianConnection =
  | { readonly socket: string; readonly readyFd: number }
  | { readonly ownerFd: number }
  | { readonly ownerConnect: string };

/**
 * The guardian's argv (after the binary) for a launch and its connection;
 * `teeFds`: where it finds the tee descriptors, when not at
 * TEE_STDOUT_FD/TEE_STDERR_FD (see guardian-launch.ts, Deno).
 */
export function guardianArgv(
  launch: GuardianLaunch,
  connection: GuardianConnection,
  teeFds: { readonly stdout: number; readonly stderr: number } = { stdout: TEE_STDOUT_FD, stderr: TEE_STDERR_FD },
): string[] {
  const args = "ownerFd" in connection
    ? ["--owner-fd", String(connection.ownerFd), "--mode", launch.mode]
    : "ownerConnect" in connection
    ? ["--owner-connect", connection.ownerConnect, "--mode", launch.mode]
    : ["--socket", connection.socket, "--ready-fd", String(connection.readyFd), "--mode", launch.mode];
  const opt = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) args.push(flag, String(value));
  };
  opt("--cwd", launch.cwd);
  opt("--file", launch.file);
  opt("--stdin", launch.stdin);
  opt("--stdout", launch.stdout);
  opt("--stderr", launch.stderr);
  opt("--rows", launch.rows);
  opt("--cols", launch.cols);
  opt("--linger", launch.lingerMs);
  opt("--drain", launch.drainMs);
  opt("--grace", launch.graceMs);
  opt("--connect-timeout", launch.connectTimeoutMs);
  opt("--pgid", launch.pgid);
  opt("--spill-stdout", launch.spillStdout);
  opt("--spill-stderr", launch.spillStderr);
  if (launch.spillDirect) args.push("--spill-direct");
  if (launch.captureStdout) args.push("--capture-stdout");
  if (launch.captureStderr) args.push("--capture-stderr");
  if (launch.teeStdout !== undefined) args.push("--tee-stdout", String(teeFds.stdout));
  if (launch.teeStderr !== undefined) args.push("--tee-stderr", String(teeFds.stderr));
  opt("--head-bytes", launch.headBytes);
  opt("--tail-bytes", launch.tailBytes);
  opt("--stdout-head-bytes", launch.keptStdout?.headBytes);
  opt("--stdout-tail-bytes", launch.keptStdout?.tailBytes);
  opt("--stderr-head-bytes", launch.keptStderr?.headBytes);
  opt("--stderr-tail-bytes", launch.keptStderr?.tailBytes);
  opt("--stdout-head-lines", launch.keptStdout?.headLines);
  opt("--stdout-tail-lines", launch.keptStdout?.tailLines);
  opt("--stderr-head-lines", launch.keptStderr?.headLines);
  opt("--stderr-tail-lines", launch.keptStderr?.tailLines);
  if (launch.adoptable) args.push("--adoptable");
  opt("--orphan-wait", launch.orphanWaitMs);
  opt("--exit-wait", launch.exitWaitMs);
  opt("--orphan-buffer", launch.orphanBufferBytes);
  opt("--job-spill", launch.jobSpill);
  args.push("--", ...launch.argv);
  return args;
}

/** First event after auth: who answers, and what already happened (after a reconnect). */
export interface WelcomeEvent {
  readonly version: number;
  readonly pid: number;
  readonly mode: "pipe" | "pty";
  readonly child?: StartedEvent;
  readonly exited?: boolean;
  /** Present when this owner re-adopts an --adoptable guardian whose previous owner was lost. */
  readonly adopt?: AdoptFacts;
  /** With --job-spill (v5): the bytes the spill file holds, and why it stopped taking more (errno 0: it did not). */
  readonly jobSpill?: { readonly spilled: number; readonly errno: number };
}

/** The guardian's exit status when it ended its tree because it could not write to its owner (native/owner.c). */
export const GUARDIAN_EXIT_CANNOT_SERVE = 3;

/** How a fault about a job's spill file begins (native/job-spill.c): the file stopped at the guardian's count. */
export const JOB_SPILL_FAULT = "the job's spill file";

/**
 * What a re-adopting owner learns (native/orphan.c): per stream the position
 * (bytes read from the child so far), the raw tail that follows as BACKLOG
 * frames (the `buffered` bytes just before `position`), the bytes read while
 * unowned that the tail could not hold, and whether the stream ended.
 */
export interface AdoptFacts {
  readonly rows: number;
  readonly cols: number;
  readonly stopped: boolean;
  readonly streams: readonly AdoptStream[];
}

export interface AdoptStream {
  readonly stream: StreamId;
  readonly position: number;
  readonly buffered: number;
  readonly dropped: number;
  readonly eof: boolean;
}

/** The child runs. startTime is /proc/PID/stat field 22 (clock ticks since boot). */
export interface StartedEvent {
  readonly pid: number;
  readonly pgid: number;
  readonly sid: number;
  readonly startTime: number;
}

/** waitpid's verdict. signal is a number on the wire. */
export interface ExitedEvent {
  readonly code: number | null;
  readonly signal: number | null;
  readonly core: boolean;
}

/** exec failed: errno 2 (ENOENT) maps to 127, others to 126 (DESIGN.md 4.1). */
export interface SpawnFailedEvent {
  readonly errno: number;
  readonly message: string;
}

/** The answer to resize, signal, close-stdin and release. */
export interface ReplyEvent {
  readonly id: number;
  readonly ok: boolean;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The verdict of a terminate: confirmed only when every member was seen gone. */
export interface TerminateReceipt {
  readonly id: number;
  readonly status: "confirmed" | "uncertain";
  /** SIGKILL was needed: something outlived SIGTERM and the grace. */
  readonly forced: boolean;
  readonly members: readonly { readonly pid: number; readonly startTime: number; readonly killed: boolean }[];
  readonly uncertain: readonly { readonly pid: number | null; readonly reason: string }[];
}

/** A spilled stream ended: its total size; error when the file could not be written. */
export interface SpilledEvent {
  readonly stream: StreamId;
  readonly total: number;
  readonly error: string | null;
  /** Present (true) for --spill-direct summaries. */
  readonly direct?: boolean;
  /** errno of the failure (0 when none); absent from --spill-direct summaries. */
  readonly errno?: number;
  /**
   * The tail frames just before this event are the stream's last bytes: read
   * back from the file, or, after the file failed, kept in the guardian's memory.
   */
  readonly tailSent?: boolean;
  /** The guardian kept the stream itself (capture, no spill file): the tail frames came from its memory. */
  readonly captured?: boolean;
  /** Line feeds of the whole stream, when the guardian counted them (a captured stream). */
  readonly lineFeeds?: number;
  /** The byte just before the tail frames (-1: the tail follows the head directly), with captured. */
  readonly beforeTail?: number;
}

/**
 * A syscall on a supervision path failed (read EIO, poll, wait4, a pidfd
 * signal, /proc): said once per `what`. `stream` (1, 2) when that stream's
 * output is incomplete because of it, else 0.
 */
export interface FaultEvent {
  readonly what: string;
  readonly syscall: string;
  readonly errno: number;
  readonly message: string;
  readonly stream: 0 | StreamId;
}

/** How far a captured stream got (sent at most every 200 ms while it flows). */
export interface ProgressEvent {
  readonly stream: StreamId;
  readonly total: number;
  readonly lineFeeds: number;
  /** The last bytes the guardian kept past the head (empty while the head is still filling). */
  readonly last: Uint8Array;
}

/** Decodes a progress body (see Ev.progress). */
export function decodeProgress(body: Uint8Array): ProgressEvent {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  return {
    stream: body[0] as StreamId,
    total: Number(view.getBigUint64(1)),
    lineFeeds: Number(view.getBigUint64(9)),
    last: body.slice(17),
  };
}

/** A protocol error; the guardian closes the connection after it. */
export interface GuardianErrorEvent {
  readonly code: string;
  readonly message: string;
}

/** Request bodies: fixed binary layouts, big-endian, a u32 id first. */
export const encodeRequest = {
  resize(id: number, rows: number, cols: number): Uint8Array {
    const b = new Uint8Array(8);
    const v = new DataView(b.buffer);
    v.setUint32(0, id);
    v.setUint16(4, clamp16(rows));
    v.setUint16(6, clamp16(cols));
    return b;
  },
  signal(id: number, target: number, signo: number): Uint8Array {
    const b = new Uint8Array(6);
    new DataView(b.buffer).setUint32(0, id);
    b[4] = target;
    b[5] = signo;
    return b;
  },
  id(id: number): Uint8Array {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, id);
    return b;
  },
  /** terminate/shutdown; a first signal other than SIGTERM (15) rides in a ninth byte. */
  idGrace(id: number, graceMs: number, firstSignal = 15): Uint8Array {
    const b = new Uint8Array(firstSignal === 15 ? 8 : 9);
    const v = new DataView(b.buffer);
    v.setUint32(0, id);
    v.setUint32(4, Math.max(0, Math.min(0xffffffff, Math.round(graceMs))));
    if (firstSignal !== 15) b[8] = firstSignal;
    return b;
  },
};

function clamp16(n: number): number {
  return Math.max(0, Math.min(0xffff, Math.round(n)));
}

/** JSON bodies of events. */
export function decodeJson<T>(body: Uint8Array): T {
  return JSON.parse(new TextDecoder().decode(body)) as T;
}
