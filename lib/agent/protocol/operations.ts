// The table of the agent's operations (DESIGN.md 4.6; tmux's cmd_table,
// pueue's Request): each operation described once, here. Its request type,
// its validation (validation.ts), its place in the router (server/router.ts,
// a record keyed by this table's keys, so a missing handler does not
// compile), the `unknown_op` message and the protocol tests all come from
// this description. The messages of an attached connection and the events
// the agent sends unprompted are in the two tables below it.
//
// Bump PROTOCOL_VERSION (version.ts) if anything here changes.
// Longer than 300 lines because the table is one object: split, its operations would be described in two places.
import { MAX_KEPT_BYTES } from "../../core/size.ts";
import type { ExitFacts } from "../../core/exit-facts.ts";
import type { JobInfo, JobReadReply, ReapedJob, Receipt } from "./job-messages.ts";
import type { AgentStatus, ExecReply, ReapedSession, RecordingStatus, ScreenView, SessionInfo, WaitReply } from "./messages.ts";
import {
  boolean,
  execText,
  type FieldSpec,
  type Fields,
  integer,
  nameOr,
  number,
  optional,
  text,
  texts,
  textWhere,
  trusted,
} from "./fields.ts";
import {
  absolutePath,
  argv,
  base64,
  dimension,
  environment,
  jobRef,
  millis,
  recording,
  sessionName,
  sessionRef,
  stopRunning,
  WAIT_CONDITIONS,
  waitObject,
} from "./agent-fields.ts";
import { badRequest } from "./errors.ts";

/** The reply body of an operation: a type only, for the derived `ReplyBodies`. */
export interface ReplyShape<T> {
  readonly body?: T;
}
const reply = <T>(): ReplyShape<T> => ({});

/** One operation: what it is for, its fields in checking order, its reply. */
export interface Operation<S extends FieldSpec, R> {
  readonly about: string;
  readonly fields: S;
  readonly reply: ReplyShape<R>;
  /** May come before a hello (finding and stopping an agent of another version). */
  readonly beforeHello?: true;
  /** A rule across fields, after each field passed; throws AgentError bad_request. */
  readonly refine?: (request: Fields<S>) => void;
}
const operation = <S extends FieldSpec, R>(o: Operation<S, R>): Operation<S, R> => o;

/** In this order in the `unknown_op` message. */
export const OPERATIONS = {
  hello: operation({
    about: "the first exchange: the client's protocol version",
    fields: { version: integer(0, Number.MAX_SAFE_INTEGER) },
    reply: reply<{ readonly version: number; readonly pid: number }>(),
    beforeHello: true,
  }),
  open: operation({
    about: "starts a session; `env` is its complete environment (the client scrubbed it)",
    fields: {
      argv: argv(),
      name: optional(sessionName()),
      cols: optional(dimension()),
      rows: optional(dimension()),
      cwd: optional(execText()),
      env: optional(environment()),
      term: optional(execText()),
      scrollback: optional(integer(0, 1_000_000)),
      /** Record the session as asciicast v2 from its first byte (the path is absolute). */
      record: optional(recording()),
      /** false: leave a shell (bash, zsh, fish, sh) unhooked; `exec` then refuses the session. Default true. */
      shellIntegration: optional(boolean()),
    },
    reply: reply<{ readonly session: SessionInfo }>(),
  }),
  send: operation({
    about: "sends `text` literally, then `keys` (named), then `bytes` (base64); with `wait`, then waits from where the input went in",
    fields: {
      session: sessionRef(),
      text: optional(text()),
      keys: optional(texts()),
      bytes: optional(base64()),
      wait: optional(waitObject()),
    },
    /** `at`: the output position when the input was handed to the terminal. */
    reply: reply<{ readonly sent: number; readonly at: number; readonly wait?: WaitReply }>(),
  }),
  screen: operation({
    about: "the visible screen (DESIGN.md 4.4); `styles` adds per-row runs of colours and attributes",
    fields: {
      session: sessionRef(),
      since: optional(text()),
      scrollback: optional(integer(0, 1_000_000)),
      styles: optional(boolean()),
    },
    reply: reply<{ readonly screen: ScreenView }>(),
  }),
  wait: operation({
    about: "waits for any of the conditions; only output after `after` (or after the start, `new`) counts; `commandDone`: the hooked shell finished a command",
    fields: { session: sessionRef(), ...WAIT_CONDITIONS, commandDone: optional(boolean()), after: optional(integer(0, Number.MAX_SAFE_INTEGER)), new: optional(boolean()) },
    reply: reply<WaitReply>(),
  }),
  exec: operation({
    about: "types `command` into the session's hooked shell and waits for it to finish; the reply holds its output (bounded: head and tail, lines and bytes, `spill` gets all of it) and its exit status",
    fields: {
      session: sessionRef(),
      command: execText(),
      timeoutMs: optional(millis()),
      /** On timeout: Ctrl-C, then `graceMs` for the shell's finish mark; the reply is a timeout either way. */
      interrupt: optional(boolean()),
      graceMs: optional(millis()),
      headBytes: optional(integer(0, MAX_KEPT_BYTES)),
      maxBytes: optional(integer(0, MAX_KEPT_BYTES)),
      headLines: optional(integer(0, Number.MAX_SAFE_INTEGER)),
      tailLines: optional(integer(0, Number.MAX_SAFE_INTEGER)),
      spill: optional(absolutePath()),
    },
    reply: reply<ExecReply>(),
  }),
  resize: operation({
    about: "resizes the session's terminal; the reply's size is what the terminal got (clamped)",
    fields: { session: sessionRef(), cols: dimension(), rows: dimension() },
    reply: reply<{ readonly session: SessionInfo }>(),
  }),
  close: operation({
    about: "SIGHUP, then terminate after the grace (at once when forced)",
    fields: { session: sessionRef(), graceMs: optional(millis()), force: optional(boolean()) },
    reply: reply<{ readonly session: SessionInfo }>(),
  }),
  list: operation({
    about: "every session",
    fields: {},
    reply: reply<{ readonly sessions: readonly SessionInfo[] }>(),
  }),
  attach: operation({
    about: "switches the connection to attach mode: raw byte frames both ways, ATTACHED_MESSAGES from the client",
    fields: { session: sessionRef(), cols: optional(dimension()), rows: optional(dimension()) },
    reply: reply<{ readonly session: string; readonly cols: number; readonly rows: number }>(),
  }),
  record: operation({
    about: "starts recording an open session (replacing a running recording), or with `stop` ends it",
    fields: { session: sessionRef(), record: optional(recording()), stop: optional(boolean()) },
    refine: (r) => {
      if ((r.record === undefined) === (r.stop !== true)) throw badRequest('"record" needs either a "record" object or "stop": true');
    },
    reply: reply<{ readonly session: SessionInfo; readonly recording: RecordingStatus | null }>(),
  }),
  watch: operation({
    about: "switches the connection to a read-only stream of the session: the screen, then its bytes; `resize` and `exit` events",
    fields: { session: sessionRef() },
    reply: reply<{ readonly session: string; readonly cols: number; readonly rows: number }>(),
  }),
  "agent-status": operation({
    about: "the agent's own facts",
    fields: {},
    reply: reply<AgentStatus>(),
    beforeHello: true,
  }),
  "agent-stop": operation({
    about: "the agent exits; `running` says what happens to running sessions and jobs: \"end\" them (the default), \"keep\" them for the next agent, or \"refuse\" to stop while any runs",
    fields: { running: optional(stopRunning()) },
    reply: reply<{
      readonly stopping: boolean;
      readonly sessions: number;
      /** What runs (ended, kept, or why the stop was refused), by id: sessions "1 (vi)", jobs "%1 (gen)". */
      readonly running: { readonly sessions: readonly string[]; readonly jobs: readonly string[] };
    }>(),
    beforeHello: true,
  }),
  "job-start": operation({
    about: "starts a job; `env` is complete (the client scrubbed it); `attach`: this connection becomes its terminal at once (run --tty)",
    fields: {
      argv: argv(true),
      spill: optional(absolutePath()),
      tty: boolean(),
      name: optional(sessionName()),
      attach: optional(boolean()),
      cwd: optional(execText()),
      env: optional(environment()),
      cols: optional(dimension()),
      rows: optional(dimension()),
      headBytes: integer(0, MAX_KEPT_BYTES),
      maxBytes: integer(0, MAX_KEPT_BYTES),
      graceMs: millis(),
      /** With `tty`: record the job's terminal as asciicast v2 (the path is absolute). */
      record: optional(recording()),
    },
    reply: reply<{ readonly job: JobInfo }>(),
  }),
  jobs: operation({
    about: "every job (`corral jobs`)",
    fields: {},
    reply: reply<{ readonly jobs: readonly JobInfo[] }>(),
  }),
  "job-read": operation({
    about: "reads a job's output by offset, never consuming; `wait`: until there is some or the job ends; `raw`: the bytes as one byte frame before the reply",
    fields: {
      job: optional(jobRef()),
      from: integer(0, Number.MAX_SAFE_INTEGER),
      maxBytes: optional(integer(1, 16 * 1024 * 1024)),
      wait: optional(boolean()),
      raw: optional(boolean()),
    },
    reply: reply<{ readonly job: JobInfo; readonly read: JobReadReply }>(),
  }),
  fg: operation({
    about: "attaches this connection to the job as its terminal, then continues it",
    fields: { job: optional(jobRef()), cols: optional(dimension()), rows: optional(dimension()) },
    /** `attached` false: the job had finished, nothing to attach to. */
    reply: reply<{ readonly job: JobInfo; readonly attached: boolean }>(),
  }),
  bg: operation({
    about: "continues a stopped job without a terminal",
    fields: { job: optional(jobRef()) },
    reply: reply<{ readonly job: JobInfo }>(),
  }),
  "job-stop": operation({
    about: "terminates one job's whole tree (SIGTERM, the grace, SIGKILL) and waits until it is gone; a finished job is left as it is",
    fields: { job: optional(jobRef()), graceMs: optional(millis()) },
    /** `receipt`: the termination's, or the one recorded when the job ended by itself. */
    reply: reply<{ readonly job: JobInfo; readonly receipt: Receipt | null; readonly stopped: boolean }>(),
  }),
  reap: operation({
    about: "retires finished jobs and exited sessions; `all` terminates what still runs first",
    fields: { all: optional(boolean()), graceMs: optional(millis()) },
    reply: reply<{ readonly jobs: readonly ReapedJob[]; readonly sessions: readonly ReapedSession[] }>(),
  }),
  "command-line": operation({
    about: "runs a corral command line for the native client: output frames (tag 3), then the exit status; `not_served` before any output; with `stdin`, the client answers the agent's input frames (tag 4) from its stdin; with `lines` (`connect`), after the agent's first input frame the client pushes its stdin in input frames unasked, an empty one at its end, unless that frame holds the letter A (`adopt`: the agent took the client's stdin and stdout and answers on them); a client of another install than the agent's (`install`) is not served",
    fields: {
      argv: argv(),
      stdin: optional(boolean()),
      lines: optional(boolean()),
      cwd: absolutePath(),
      env: environment(),
      columns: optional(integer(1, 10_000)),
      stdoutTty: optional(boolean()),
      stderrTty: optional(boolean()),
      /**
       * The root of the client's own install (the directory above its
       * dist/): the agent runs command lines only for a client of the
       * install it was started from, so the native door and the
       * JavaScript one answer with the same build's code.
       */
      install: optional(absolutePath()),
      /**
       * `connect` only: the token under which the client dropped its stdin,
       * stdout and ledger at the agent's descriptor drop (the socket's path
       * plus `.fds`). An agent that takes them answers the lines on those
       * descriptors itself and sends an input frame holding "A" instead of
       * the empty go-ahead; one that does not (an older agent, a runtime
       * that cannot) sends the go-ahead and the client relays as before.
       */
      adopt: optional(textWhere((value) => /^[0-9a-f]{32}$/.test(value), '"adopt" must be a token of 32 lowercase hex digits')),
    },
    reply: reply<{ readonly status: number }>(),
  }),
} as const;

/** The signals a client forwards to its job: SIGTSTP stops it, the others end its tree with that signal first. */
export const JOB_SIGNALS = ["SIGTSTP", "SIGINT", "SIGHUP", "SIGQUIT", "SIGTERM"] as const;

/**
 * What a client sends on an attached connection (attach, job-start with
 * `attach`, fg), without id or reply. One that does not check out is
 * ignored: a garbled control frame from a terminal is not fatal.
 */
export const ATTACHED_MESSAGES = {
  /** The person's window changed size; the receiver clamps it. */
  "attach-resize": { cols: number(), rows: number() },
  /** A signal for the job; any other name reads as SIGTERM, as it always did. */
  "job-signal": { signal: nameOr(JOB_SIGNALS, "SIGTERM") },
} as const;

/** What the agent sends unprompted, `{event, ...}`; the client trusts them, so they are typed, not checked. */
export const EVENTS = {
  /** Attach and watch: the program exited. */
  exit: { exit: trusted<ExitFacts | null>() },
  /** Watch: the session's size changed. */
  resize: { cols: trusted<number>(), rows: trusted<number>() },
  /** A job's terminal: the job stopped (the client restores its terminal, exits 148); the connection closes. */
  "job-stopped": { job: trusted<JobInfo>() },
  /** A job's terminal: the job ended; the connection closes. The job stays in the agent either way. */
  "job-done": { job: trusted<JobInfo>() },
} as const;

// ---- derived types --------------------------------------------------------

type Table = typeof OPERATIONS;
export type Op = keyof Table;
type FieldsOf<O extends Op> = Fields<Table[O]["fields"]>;

/** The request of one operation. */
export type RequestOf<O extends Op> = { readonly op: O } & FieldsOf<O>;
export type Request = { [O in Op]: RequestOf<O> }[Op];
/** A request as framed: `id` pairs it with its reply on a connection. */
export type Envelope<T extends Request = Request> = T & { readonly id: number };

export type ReplyBodies = { [O in Op]: Table[O]["reply"] extends ReplyShape<infer R> ? R : never };

export type AttachedOp = keyof typeof ATTACHED_MESSAGES;
export type AttachedMessageOf<O extends AttachedOp> = { readonly op: O } & Fields<(typeof ATTACHED_MESSAGES)[O]>;
export type AttachedMessage = { [O in AttachedOp]: AttachedMessageOf<O> }[AttachedOp];
export type JobSignal = (typeof JOB_SIGNALS)[number];

export type EventName = keyof typeof EVENTS;
export type EventOf<E extends EventName> = { readonly event: E } & Fields<(typeof EVENTS)[E]>;
export type AgentEvent = { [E in EventName]: EventOf<E> }[EventName];

// The names the rest of corral uses for them.
export type HelloRequest = RequestOf<"hello">;
export type OpenRequest = RequestOf<"open">;
export type SendRequest = RequestOf<"send">;
export type ScreenRequest = RequestOf<"screen">;
export type WaitRequest = RequestOf<"wait">;
export type ExecRequest = RequestOf<"exec">;
export type ResizeRequest = RequestOf<"resize">;
export type CloseRequest = RequestOf<"close">;
export type ListRequest = RequestOf<"list">;
export type AttachRequest = RequestOf<"attach">;
export type RecordRequest = RequestOf<"record">;
export type WatchRequest = RequestOf<"watch">;
export type AgentStatusRequest = RequestOf<"agent-status">;
export type AgentStopRequest = RequestOf<"agent-stop">;
export type JobStartRequest = RequestOf<"job-start">;
export type JobsRequest = RequestOf<"jobs">;
export type JobReadRequest = RequestOf<"job-read">;
export type FgRequest = RequestOf<"fg">;
export type BgRequest = RequestOf<"bg">;
export type JobStopRequest = RequestOf<"job-stop">;
export type ReapRequest = RequestOf<"reap">;
export type CommandLineRequest = RequestOf<"command-line">;
/** The conditions of a wait; the first one met wins. */
export type WaitConditions = Fields<typeof WAIT_CONDITIONS>;
export type AttachResizeMessage = AttachedMessageOf<"attach-resize">;
export type AttachExitEvent = EventOf<"exit">;
export type WatchResizeEvent = EventOf<"resize">;
export type JobAttachEvent = EventOf<"job-stopped" | "job-done">;
