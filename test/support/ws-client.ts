// A WebSocket client just big enough to read a `pty view` stream from a
// test (RFC 6455: masked client frames, the server's unmasked frames).
import { connect, type Socket } from "node:net";
import { randomBytes } from "node:crypto";

export interface WsMessage {
  readonly text?: string;
  readonly binary?: Buffer;
}

export interface WsClient {
  /** The HTTP status line of the handshake answer. */
  readonly status: string;
  readonly messages: WsMessage[];
  /** Everything binary received so far, as text. */
  binaryText(): string;
  sendText(text: string): void;
  close(): void;
  readonly closed: Promise<void>;
}

export function openWs(url: string): Promise<WsClient> {
  const target = new URL(url);
  const socket: Socket = connect(Number(target.port), target.hostname);
  const key = randomBytes(16).toString("base64");
  socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const messages: WsMessage[] = [];
  let buffer = Buffer.alloc(0);
  let status: string | undefined;
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    socket.on("error", reject);
    const client = (): WsClient => ({
      status: status ?? "",
      messages,
      binaryText: () => Buffer.concat(messages.flatMap((m) => (m.binary === undefined ? [] : [m.binary]))).toString("utf8"),
      sendText(text) {
        const payload = Buffer.from(text);
        const mask = randomBytes(4);
        const masked = Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)));
        socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
      },
      close: () => socket.destroy(),
      closed,
    });
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (status === undefined) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        status = buffer.subarray(0, buffer.indexOf("\r\n")).toString();
        buffer = buffer.subarray(end + 4);
        resolve(client());
        if (!status.includes(" 101 ")) return;
      }
      for (;;) {
        if (buffer.length < 2) return;
        let length = (buffer[1] as number) & 0x7f;
        let at = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          at = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          at = 10;
        }
        if (buffer.length < at + length) return;
        const opcode = (buffer[0] as number) & 0x0f;
        const payload = Buffer.from(buffer.subarray(at, at + length));
        buffer = buffer.subarray(at + length);
        if (opcode === 1) messages.push({ text: payload.toString("utf8") });
        if (opcode === 2) messages.push({ binary: payload });
      }
    });
  });
}
