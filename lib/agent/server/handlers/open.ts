// `open`: starts a program in a new terminal session. The environment is
// the caller's (scrubbed by the client), never the agent's own.
import process from "node:process";
import { clampSize, type AgentContext } from "../agent-context.ts";
import type { OpenRequest, ReplyBodies } from "../../protocol/messages.ts";
import { checkScreenCells } from "../agent-budgets.ts";
import { makeScreenRoom } from "../screen-pressure.ts";
import { clampScrollback } from "../../../pty/screen-size.ts";
import { recordSession } from "../session-record.ts";
import { keepSessionEnd, noteAgentHeldSession } from "../session-ends.ts";
import { describeExit } from "../../../core/exit-words.ts";

/** Opens a session; the name is checked before anything is spawned. */
export async function handleOpen(ctx: AgentContext, request: OpenRequest): Promise<ReplyBodies["open"]> {
  const name = request.name ?? null;
  if (name !== null) ctx.registry.assertNameFree(name);
  const cols = clampSize(request.cols ?? ctx.defaults.cols);
  const rows = clampSize(request.rows ?? ctx.defaults.rows);
  const scrollback = clampScrollback(request.scrollback ?? ctx.defaults.scrollback);
  // Charged what it holds when it starts (its visible rows); its scrollback is charged as it fills.
  const inUse = makeScreenRoom(ctx.registry, cols * rows, ctx.budgets.screenCells);
  checkScreenCells(inUse, cols * rows, ctx.budgets.screenCells, `a ${cols}x${rows} session`);
  const session = await ctx.openSession({
    argv: request.argv,
    cols,
    rows,
    cwd: request.cwd ?? process.cwd(),
    env: request.env ?? fallbackEnvironment(),
    term: request.term ?? request.env?.TERM ?? ctx.defaults.term,
    scrollback: Math.min(request.scrollback ?? ctx.defaults.scrollback, 100_000),
    ...(request.record !== undefined ? { record: request.record } : {}),
    ...(request.shellIntegration === false ? { shellIntegration: false } : {}),
  });
  const entry = ctx.registry.add(session, name, scrollback);
  // Written down so that a new agent can re-adopt it if this one dies or is replaced (issue 11).
  // Its end is written down as it comes, for whichever agent is asked next (session-ends.ts).
  const link = session.link?.();
  const term = request.term ?? request.env?.TERM ?? ctx.defaults.term;
  if (link !== undefined) recordSession(ctx.stateDir, entry, link, term);
  else {
    noteAgentHeldSession(ctx.stateDir, entry, term);
    keepSessionEnd(ctx.stateDir, entry, term);
  }
  // The program's name only: arguments may carry secrets.
  ctx.log(`session ${entry.id} opened: pid ${session.pid}, program ${request.argv[0] ?? "?"}, ${cols}x${rows}`);
  session.onExit((exit) => {
    ctx.log(`session ${entry.id} ended: ${describeExit(exit)}`);
  });
  return { session: ctx.registry.info(entry) };
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
