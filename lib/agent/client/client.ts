// The client end of the agent socket: one connection, many requests in
// flight, replies matched by id. Used by every `corral pty ...` command, by
// `corral connect` (which pipelines the lines it reads) and by the tests.
import { openAgentLink, type AgentLink, type AgentLinkEvents } from "./agent-link.ts";
import { attachedFrame, bytesFrame, FrameDecoder, frameJson, jsonFrame, type Frame } from "../protocol/frames.ts";
import type { AgentEvent, AttachedMessage } from "../protocol/operations.ts";
import {
  AgentError,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  Tag,
  type Op,
  type ReplyBodies,
  type Request,
  type Reply,
} from "../protocol/messages.ts";
import { versionMismatchMessage } from "../protocol/version.ts";

type Pending =
  | { raw: false; resolve: (reply: Reply) => void; reject: (error: Error) => void }
  | { raw: true; resolve: (body: Uint8Array) => void; reject: (error: Error) => void };

/** `{"id":` as bytes: how every reply of the agent begins (its id goes first). */
const ID_PREFIX = [0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a];

/**
 * The id a reply body starts with and where the id ends, read from the bytes
 * (no JSON parse); undefined when the body does not start `{"id":DIGITS`
 * followed by `,` or `}`.
 */
export function leadingReplyId(body: Uint8Array): { id: number; end: number } | undefined {
  for (let i = 0; i < ID_PREFIX.length; i++) if (body[i] !== ID_PREFIX[i]) return undefined;
  let at = ID_PREFIX.length;
  let id = 0;
  while (at < body.length && at < ID_PREFIX.length + 15) {
    const byte = body[at] as number;
    if (byte < 0x30 || byte > 0x39) break;
    id = id * 10 + byte - 0x30;
    at++;
  }
  if (at === ID_PREFIX.length || (body[at] !== 0x2c && body[at] !== 0x7d)) return undefined;
  return { id, end: at };
}

/** A connection to the agent. */
export class AgentClient {
  #decoder = new FrameDecoder(MAX_FRAME_BYTES);
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #closedError: Error | null = null;
  /** Set in attach mode: raw bytes and events after the attach reply. */
  onBytes: ((bytes: Uint8Array) => void) | null = null;
  onEvent: ((event: AgentEvent) => void) | null = null;
  onClose: (() => void) | null = null;
  /** Settles when the connection is closed, by either side. */
  readonly closed: Promise<void>;
  #closed!: () => void;
  #link!: AgentLink;

  private constructor() {
    this.closed = new Promise((resolve) => (this.#closed = resolve));
  }

  /** Connects without hello (the caller decides); rejects with the socket error. */
  static async open(socketPath: string): Promise<AgentClient> {
    return await AgentClient.over((events) => openAgentLink(socketPath, events));
  }

  /**
   * A client over any byte stream that carries the agent's frames (a remote
   * call's ssh, lib/agent/client/remote/); a link that fails says why in
   * close(error), and that error is what every pending and later request gets.
   */
  static async over(openLink: (events: AgentLinkEvents & { close(error?: Error): void }) => Promise<AgentLink> | AgentLink): Promise<AgentClient> {
    const client = new AgentClient();
    client.#link = await openLink({
      data: (bytes) => client.#onData(bytes),
      error: (error) => client.#fail(new AgentError("internal", `agent connection failed: ${error.message}`)),
      close: (error?: Error) => {
        client.#fail(error ?? new AgentError("internal", "the agent closed the connection"));
        client.#closed();
        client.onClose?.();
      },
    });
    return client;
  }

  /** The connection failed or was closed (by either side): nothing more comes on it. */
  get lost(): boolean {
    return this.#closedError !== null;
  }

  /** The hello exchange; throws AgentError version_mismatch with both numbers. */
  async hello(): Promise<ReplyBodies["hello"]> {
    const reply = await this.call({ op: "hello", version: PROTOCOL_VERSION });
    if (reply.version !== PROTOCOL_VERSION) {
      throw new AgentError("version_mismatch", versionMismatchMessage(reply.version, PROTOCOL_VERSION));
    }
    return reply;
  }

  /** Sends a typed request; resolves with the reply body, throws AgentError on `ok:false`. */
  async call<O extends Op>(request: Extract<Request, { op: O }>): Promise<ReplyBodies[O]> {
    const reply = await this.send(request);
    if (!reply.ok) throw new AgentError(reply.error.code, reply.error.message);
    return reply as unknown as ReplyBodies[O];
  }

  /** Sends any JSON object as a request (connect passes lines through); resolves with the raw reply. */
  send(request: object): Promise<Reply> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { raw: false, resolve, reject });
      this.#write(jsonFrame({ ...request, id }));
    });
  }

  /**
   * Sends any JSON object as a request; resolves with the reply frame's body
   * as it came: UTF-8 JSON starting `{"id":N` (leadingReplyId). For a relay
   * that passes replies on (connect): no parse and no re-encoding.
   */
  sendRaw(request: object): Promise<Uint8Array> {
    if (this.#closedError) return Promise.reject(this.#closedError);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { raw: true, resolve, reject });
      this.#write(jsonFrame({ ...request, id }));
    });
  }

  /** Attach mode: bytes typed by the person. */
  sendBytes(bytes: Uint8Array): void {
    this.#write(bytesFrame(bytes));
  }

  /** Attach mode: a control message of the table's ATTACHED_MESSAGES (a resize, a signal for the job). */
  sendAttached(message: AttachedMessage): void {
    this.#write(attachedFrame(message));
  }

  /** Attach mode: the person's window changed size. */
  sendResize(cols: number, rows: number): void {
    this.sendAttached({ op: "attach-resize", cols, rows });
  }

  /** Stops reading the agent's bytes until resume(): a slow consumer slows the agent, never our memory. */
  pause(): void {
    this.#link.pause();
  }

  resume(): void {
    this.#link.resume();
  }

  close(): void {
    this.#link.close();
  }

  #write(frame: Uint8Array): void {
    this.#link.write(frame);
  }

  #onData(chunk: Uint8Array): void {
    let frames: Frame[];
    try {
      frames = this.#decoder.push(chunk);
    } catch (error) {
      this.#fail(new AgentError("internal", `bad frame from the agent: ${(error as Error).message}`));
      this.#link.close();
      return;
    }
    for (const frame of frames) {
      if (frame.tag === Tag.bytes) {
        this.onBytes?.(frame.body);
        continue;
      }
      // A reply asked for raw is passed on as it came (its id read from the bytes).
      const leading = leadingReplyId(frame.body);
      const rawPending = leading === undefined ? undefined : this.#pending.get(leading.id);
      if (leading !== undefined && rawPending?.raw === true) {
        this.#pending.delete(leading.id);
        rawPending.resolve(frame.body);
        continue;
      }
      let message: Record<string, unknown>;
      try {
        message = frameJson(frame.body) as Record<string, unknown>;
      } catch {
        this.#fail(new AgentError("internal", "the agent sent a frame that is not JSON; is something else listening on the socket?"));
        this.#link.close();
        return;
      }
      if (typeof message.event === "string") {
        this.onEvent?.(message as unknown as AgentEvent);
        continue;
      }
      const pending = this.#pending.get(message.id as number);
      if (pending === undefined) continue;
      this.#pending.delete(message.id as number);
      if (pending.raw) pending.resolve(frame.body);
      else pending.resolve(message as unknown as Reply);
    }
  }

  #fail(error: Error): void {
    this.#closedError ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
