// `open`: starts a program in a new terminal session. The environment is
// the caller's (scrubbed by the client), never the agent's own.
import process from "node:process";
import { clampSize, type AgentContext } from "../agent-context.ts";
import type { OpenRequest, ReplyBodies } from "../protocol.ts";

/** Opens a session; the name is checked before anything is spawned. */
export async function handleOpen(ctx: AgentContext, request: OpenRequest): Promise<ReplyBodies["open"]> {
  const name = request.name ?? null;
  if (name !== null) ctx.registry.assertNameFree(name);
  const cols = clampSize(request.cols ?? ctx.defaults.cols);
  const rows = clampSize(request.rows ?? ctx.defaults.rows);
  const session = await ctx.openSession({
    argv: request.argv,
    cols,
    rows,
    cwd: request.cwd ?? process.cwd(),
    env: request.env ?? fallbackEnvironment(),
    term: request.term ?? request.env?.TERM ?? ctx.defaults.term,
    scrollback: Math.min(request.scrollback ?? ctx.defaults.scrollback, 100_000),
    ...(request.record !== undefined ? { record: request.record } : {}),
  });
  const entry = ctx.registry.add(session, name);
  // The program's name only: arguments may carry secrets.
  ctx.log(`session ${entry.id} opened: pid ${session.pid}, program ${request.argv[0] ?? "?"}, ${cols}x${rows}`);
  session.onExit((exit) => {
    const how = exit === null ? "unknown" : exit.signal ?? `status ${exit.code}`;
    ctx.log(`session ${entry.id} ended: ${how}`);
  });
  const size = session.size();
  return { session: entry.id, name: entry.name, pid: session.pid, cols: size.cols, rows: size.rows };
}

/**
 * For a raw protocol client that sends no `env`: the agent's own
 * environment, which already lacks credential-shaped names, minus corral's
 * own settings. corral's commands always send the caller's.
 */
function fallbackEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("CORRAL_")) env[name] = value;
  }
  return env;
}
