// The HTTP side of `pty view`: a page, its scripts, and a WebSocket per open
// page, all behind a random token (a URL nobody else can guess; compared in
// constant time). Listens on 127.0.0.1 unless told otherwise. The streams
// themselves come from the caller (one agent connection per page).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import { acceptWebSocket, type WebSocketPeer } from "./websocket.ts";
import { VIEW_CSS, VIEW_JS, viewPage } from "./view-page.ts";

export interface ViewServerOptions {
  readonly host: string;
  /** 0: a free port. */
  readonly port: number;
  readonly title: string;
  /** Files of @xterm/xterm: lib/xterm.js and css/xterm.css. */
  readonly xtermJs: string;
  readonly xtermCss: string;
  /** Feeds one page's WebSocket until it closes. */
  readonly stream: (peer: WebSocketPeer) => void;
}

export interface ViewServer {
  readonly url: string;
  readonly token: string;
  /**
   * Stops serving. `graceMs`: time the open pages get to finish their own
   * streams first (after the program exited, each page's stream carries
   * the exit and ends by itself).
   */
  close(graceMs?: number): Promise<void>;
}

const HEADERS = {
  "Cache-Control": "no-store",
  // The token is in the URL: it must not leak to another site.
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:",
};

/**
 * The file asked for under `/TOKEN/`, or null when the token is missing or
 * wrong. The token is the first path segment, so the page's relative links
 * (xterm.js, stream) carry it without any script.
 */
function requestedFile(request: IncomingMessage, token: string): string | null {
  const path = new URL(request.url ?? "/", "http://view").pathname;
  const match = /^\/([^/]*)(\/.*)?$/.exec(path);
  const given = Buffer.from(match?.[1] ?? "");
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return match?.[2] ?? "";
}

/** Starts listening; resolves once the port is bound. */
export function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const token = randomBytes(18).toString("base64url");
  const files: Record<string, { type: string; body: string | Buffer }> = {
    "/": { type: "text/html; charset=utf-8", body: viewPage(options.title) },
    "/view.js": { type: "text/javascript; charset=utf-8", body: VIEW_JS },
    "/view.css": { type: "text/css; charset=utf-8", body: VIEW_CSS },
    "/xterm.js": { type: "text/javascript; charset=utf-8", body: readFileSync(options.xtermJs) },
    "/xterm.css": { type: "text/css; charset=utf-8", body: readFileSync(options.xtermCss) },
  };
  const sockets = new Set<Socket>();
  const peers = new Set<WebSocketPeer>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = requestedFile(request, token);
    if (path === null) {
      response.writeHead(403, { ...HEADERS, "Content-Type": "text/plain; charset=utf-8" });
      response.end("403: this view needs the token in the URL corral printed\n");
      return;
    }
    if (path === "") {
      // /TOKEN without the slash: relative links need it.
      response.writeHead(301, { ...HEADERS, Location: `/${token}/` });
      response.end();
      return;
    }
    const file = files[path];
    if (file === undefined || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { ...HEADERS, "Content-Type": "text/plain; charset=utf-8" });
      response.end("404\n");
      return;
    }
    response.writeHead(200, { ...HEADERS, "Content-Type": file.type });
    response.end(request.method === "HEAD" ? undefined : file.body);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (request: IncomingMessage, socket: Socket) => {
    if (requestedFile(request, token) !== "/stream") {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n");
      return;
    }
    const peer = acceptWebSocket(request, socket);
    if (peer === null) return;
    peers.add(peer);
    peer.onClose(() => peers.delete(peer));
    options.stream(peer);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : options.port;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}/${token}/`,
        token,
        close: async (graceMs = 0) => {
          const closed = new Promise<void>((done) => server.close(() => done()));
          if (peers.size > 0 && graceMs > 0) {
            let timer: ReturnType<typeof setTimeout> | undefined;
            const allClosed = Promise.all([...peers].map((peer) => new Promise<void>((done) => peer.onClose(done))));
            await Promise.race([allClosed, new Promise((done) => (timer = setTimeout(done, graceMs)))]);
            clearTimeout(timer);
          }
          for (const peer of peers) peer.close(1001);
          for (const socket of sockets) socket.destroy();
          await closed;
        },
      });
    });
  });
}
