// The server side of a WebSocket (RFC 6455), as much as a read-only view
// needs: the opening handshake over an HTTP upgrade, unmasked frames to the
// browser (binary for terminal bytes, text for JSON events), and from the
// browser only what the protocol requires us to answer (close, ping).
// Anything else a browser sends is read and dropped: the view never types.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { Buffer } from "node:buffer";

/** RFC 6455 section 1.3: the key is hashed with this fixed GUID. */
const HANDSHAKE_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/** A browser has no reason to send big frames to a read-only view. */
const MAX_INCOMING = 64 * 1024;

const Opcode = { text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

function frame(opcode: number, payload: Uint8Array): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode; // FIN, no extensions
  if (length < 126) head[1] = length;
  else if (length < 65536) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** One accepted WebSocket. */
export class WebSocketPeer {
  #socket: Duplex;
  #incoming = Buffer.alloc(0);
  #closed = false;
  #closeListeners: Array<() => void> = [];

  constructor(socket: Duplex) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => this.#onData(chunk));
    socket.on("close", () => this.#ended());
    socket.on("error", () => socket.destroy());
  }

  /** Bytes written but not yet taken by the network: a slow browser shows here. */
  get backlog(): number {
    return (this.#socket as Duplex & { writableLength: number }).writableLength;
  }

  get closed(): boolean {
    return this.#closed;
  }

  sendBinary(bytes: Uint8Array): void {
    if (!this.#closed) this.#socket.write(frame(Opcode.binary, bytes));
  }

  sendText(text: string): void {
    if (!this.#closed) this.#socket.write(frame(Opcode.text, Buffer.from(text, "utf8")));
  }

  /** A close frame with `code`, then the connection ends. */
  close(code = 1000): void {
    if (this.#closed) return;
    const body = Buffer.alloc(2);
    body.writeUInt16BE(code, 0);
    this.#socket.end(frame(Opcode.close, body));
    this.#ended();
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.push(listener);
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#closeListeners.splice(0)) listener();
  }

  #onData(chunk: Buffer): void {
    this.#incoming = Buffer.concat([this.#incoming, chunk]);
    for (;;) {
      const buf = this.#incoming;
      if (buf.length < 2) return;
      const opcode = (buf[0] as number) & 0x0f;
      const masked = ((buf[1] as number) & 0x80) !== 0;
      let length = (buf[1] as number) & 0x7f;
      let at = 2;
      if (length === 126) {
        if (buf.length < 4) return;
        length = buf.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (buf.length < 10) return;
        const long = buf.readBigUInt64BE(2);
        length = long > BigInt(MAX_INCOMING) ? MAX_INCOMING + 1 : Number(long);
        at = 10;
      }
      // Section 5.1: a client's frames are masked; section 7.4.1: 1009 for too big.
      if (!masked) return this.close(1002);
      if (length > MAX_INCOMING) return this.close(1009);
      if (buf.length < at + 4 + length) return;
      const mask = buf.subarray(at, at + 4);
      const payload = Buffer.from(buf.subarray(at + 4, at + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      this.#incoming = buf.subarray(at + 4 + length);
      if (opcode === Opcode.close) return this.close(1000);
      if (opcode === Opcode.ping && !this.#closed) this.#socket.write(frame(Opcode.pong, payload));
    }
  }
}

/**
 * Completes the opening handshake (section 4.2.2) and returns the peer, or
 * answers 400 and returns null when the request is not a WebSocket upgrade.
 */
export function acceptWebSocket(request: IncomingMessage, socket: Duplex): WebSocketPeer | null {
  const key = request.headers["sec-websocket-key"];
  const upgrade = request.headers.upgrade;
  if (typeof key !== "string" || typeof upgrade !== "string" || upgrade.toLowerCase() !== "websocket" || request.headers["sec-websocket-version"] !== "13") {
    socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\nexpected a WebSocket upgrade (version 13)\n");
    return null;
  }
  const accept = createHash("sha1").update(key + HANDSHAKE_GUID).digest("base64");
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  return new WebSocketPeer(socket);
}
