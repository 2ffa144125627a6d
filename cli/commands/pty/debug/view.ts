// `corral pty view`: a read-only live view of a session in a browser. One
// agent connection watches the session for its whole life (it says when the
// program exits); each open page gets its own watch connection, so every
// page starts from the screen as it is when it connects.
import process from "node:process";
import path from "node:path";
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CorralContext } from "../../../shared/context.ts";
import type { ViewFlags } from "../flags.ts";
import { reachAgent, reportFailure, withAgent } from "../../../shared/agent-reach.ts";
import { UsageError } from "../../../shared/exit-status.ts";
import type { WebSocketPeer } from "../../../../lib/view/websocket.ts";

/** A page that cannot keep up is dropped (it can reload) rather than buffered without bound. */
const MAX_PAGE_BACKLOG = 8 * 1024 * 1024;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * Where xterm.js's browser files are: they are served, never fetched from a
 * CDN. The build copies them into dist/view/ (cli/build-view-assets.mjs), so
 * an install carries them without depending on @xterm/xterm; this file runs
 * from dist/chunks/, dist/hot/ or (from source) cli/commands/pty/debug/, so
 * dist/view/ is looked for upwards. A checkout that was never built serves
 * them from the devDependency.
 */
function xtermFiles(): { js: string; css: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++) {
    for (const candidate of [path.join(dir, "view"), path.join(dir, "dist", "view")]) {
      const js = path.join(candidate, "xterm.js");
      if (existsSync(js)) return { js, css: path.join(candidate, "xterm.css") };
    }
    dir = path.dirname(dir);
  }
  const require = createRequire(import.meta.url);
  const js = require.resolve("@xterm/xterm");
  return { js, css: path.join(path.dirname(js), "..", "css", "xterm.css") };
}

/** Serves the view until the session ends or a signal comes. */
export function ptyViewAction(this: CorralContext, flags: ViewFlags, session: string): Promise<void> {
  return serveView(this, flags, session);
}

async function serveView(ctx: CorralContext, flags: ViewFlags, session: string): Promise<void> {
  let port: number;
  let files: { js: string; css: string };
  const host = flags.listen ?? "127.0.0.1";
  try {
    port = flags.port ?? 0;
    if (host === "") throw new UsageError("--listen needs an address, e.g. --listen 127.0.0.1");
    files = xtermFiles();
  } catch (error) {
    reportFailure(ctx, error);
    return;
  }
  await withAgent(ctx, flags, async (client) => {
    // Listening before asking: the exit may come in the same read as the reply.
    const ended = new Promise<string>((resolve) => {
      client.onEvent = (event) => {
        if (event.event === "exit") resolve("the program exited");
      };
      client.onClose = () => resolve("the agent closed the connection");
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => resolve(`${signal}`));
    });
    const watched = await client.call({ op: "watch", session });
    const { startViewServer } = await import("../../../../lib/view/view-server.ts");
    const stream = (peer: WebSocketPeer) => void feedPage(ctx, flags, session, peer);
    let server;
    try {
      server = await startViewServer({ host, port, title: `corral: session ${watched.session}`, xtermJs: files.js, xtermCss: files.css, stream });
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      throw new UsageError(`cannot listen on ${host}:${port}: ${typeof code === "string" ? code : String(error)}`);
    }
    ctx.process.stdout.write(`${server.url}\n`);
    if (!LOOPBACK.has(host)) {
      ctx.process.stderr.write(`corral: listening on ${host}: anyone who can reach it and has the URL sees this session\n`);
    }
    ctx.process.stderr.write(`corral: read-only view of session ${watched.session}; Ctrl-C to stop\n`);
    const why = await ended;
    // After an exit, each page's own stream brings it the exit: let them finish.
    await server.close(why === "the program exited" ? 2000 : 0);
    ctx.process.stderr.write(`corral: view closed (${why})\n`);
  });
}

/** One page: its own watch connection, relayed until either side goes. */
async function feedPage(ctx: CorralContext, flags: ViewFlags, session: string, peer: WebSocketPeer): Promise<void> {
  let client;
  try {
    client = await reachAgent(ctx, flags, false);
  } catch (error) {
    peer.sendText(JSON.stringify({ event: "exit", error: (error as Error).message }));
    peer.close(1011);
    return;
  }
  const agent = client;
  // The screen's bytes may arrive in the same read as the reply: held until the page knows the size.
  let held: Array<() => void> | null = [];
  const relay = (send: () => void) => (held === null ? send() : held.push(send));
  agent.onBytes = (bytes) =>
    relay(() => {
      if (peer.backlog > MAX_PAGE_BACKLOG) peer.close(1008);
      else peer.sendBinary(bytes);
    });
  agent.onEvent = (event) => relay(() => peer.sendText(JSON.stringify(event)));
  agent.onClose = () => relay(() => peer.close(1000));
  peer.onClose(() => agent.close());
  try {
    const size = await agent.call({ op: "watch", session });
    peer.sendText(JSON.stringify({ event: "size", cols: size.cols, rows: size.rows }));
  } catch (error) {
    peer.sendText(JSON.stringify({ event: "exit", error: (error as Error).message }));
    peer.close(1011);
    agent.close();
    return;
  }
  for (const send of held) send();
  held = null;
}
