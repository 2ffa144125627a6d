// The WebSocket server of `pty view` (lib/view/websocket.ts) alone, over a
// real HTTP upgrade: frame lengths at the edges of the three length forms
// (125/126, 65535/65536), text frames, ping answered with pong, an
// unmasked client frame refused (RFC 6455 5.1), a request that is not an
// upgrade answered 400.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { acceptWebSocket, type WebSocketPeer } from "../../../lib/view/websocket.ts";
import { openWs } from "../../support/ws-client.ts";
import { waitFor } from "../../support/wait.ts";

async function serve(onPeer: (peer: WebSocketPeer) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.end("plain"));
  server.on("upgrade", (req, socket) => {
    const peer = acceptWebSocket(req, socket);
    if (peer !== null) onPeer(peer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws` };
}

test("binary frames of 0, 125, 126, 65535, 65536 and 200000 bytes arrive whole; text too", async (t) => {
  const sizes = [0, 125, 126, 65535, 65536, 200_000];
  const { server, url } = await serve((peer) => {
    for (const size of sizes) peer.sendBinary(new Uint8Array(size).fill(size % 251));
    peer.sendText(JSON.stringify({ event: "done" }));
  });
  t.after(() => server.close());
  const ws = await openWs(url);
  assert.match(ws.status, / 101 /);
  await waitFor(() => ws.messages.length === sizes.length + 1, { what: "every frame" });
  assert.deepEqual(ws.messages.slice(0, -1).map((m) => m.binary?.length), sizes);
  assert.ok(ws.messages.slice(0, -1).every((m, i) => m.binary?.every((b) => b === (sizes[i] as number) % 251)));
  assert.deepEqual(JSON.parse(ws.messages.at(-1)?.text ?? ""), { event: "done" });
  ws.close();
});

test("ping gets a pong with the same payload; an unmasked frame closes with 1002; a plain request is 400", async (t) => {
  const { server, url } = await serve(() => {});
  t.after(() => server.close());
  const port = Number(new URL(url).port);
  const raw = connect(port, "127.0.0.1");
  let received = Buffer.alloc(0);
  raw.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  raw.write("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  await waitFor(() => received.includes("\r\n\r\n"), { what: "the handshake" });
  // The accept value of RFC 6455's own example key.
  assert.match(received.toString(), /Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=/);
  const start = received.length;
  const mask = Buffer.from([1, 2, 3, 4]);
  const payload = Buffer.from("hi!");
  raw.write(Buffer.concat([Buffer.from([0x89, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number)))]));
  await waitFor(() => received.length >= start + 2 + payload.length, { what: "the pong" });
  assert.deepEqual([...received.subarray(start, start + 5)], [0x8a, 3, ...Buffer.from("hi!")]);
  const closed = new Promise<void>((resolve) => raw.on("close", () => resolve()));
  const before = received.length;
  raw.write(Buffer.from([0x81, 0x01, 0x41])); // unmasked text frame "A"
  await closed;
  assert.deepEqual([...received.subarray(before, before + 4)], [0x88, 2, 0x03, 0xea]); // close, 1002
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { Upgrade: "websocket", Connection: "Upgrade" } });
    req.on("upgrade", (res) => resolve(res.statusCode ?? 0));
    req.on("response", (res) => resolve(res.statusCode ?? 0));
    req.on("error", reject);
    req.end();
  });
  assert.equal(status, 400, "an upgrade without a key");
});
