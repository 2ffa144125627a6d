// The caller's half of a remote program's environment
// (lib/agent/client/remote/far-environment.ts): before an open or a
// job-start goes to another machine, ask the `corral connect` there which
// of its variables it would withhold, so the line that names them (and
// --explain, and collect --json's envDropped) says what happens there, as
// it does for a local run. Values never come back, and the --env values
// are not sent twice: the plan needs their names only.
import type { AgentClient } from "../../lib/agent/client/client.ts";
import { ENV_PLAN_OP, type RemoteEnvFlags, shapesEnvironment } from "../../lib/agent/client/remote/far-environment.ts";
import { AgentError } from "../../lib/agent/protocol/messages.ts";
import { envExplainLines } from "./child/spawn-spec.ts";
import type { CorralContext } from "./context.ts";
import type { SocketFlag } from "./socket-flag.ts";
import { announceWithheld, credentialNames } from "./env-dropped-note.ts";

/** What the far side will withhold (names) and how many variables --clear-env leaves out there. */
export interface RemoteEnvPlan {
  readonly withheld: readonly string[];
  readonly cleared: number;
}

/** An open or job-start as it will go to the far side. */
interface FarRequest {
  readonly op: "open" | "job-start";
  readonly env?: Readonly<Record<string, string>>;
  readonly envFlags?: RemoteEnvFlags;
  readonly [field: string]: unknown;
}

/**
 * Asks the far side; null when it is an older corral that does not know the
 * question and nothing but the defaults was asked (it applies those alike).
 * Env-shaping flags it would not apply are refused, never dropped quietly.
 */
export async function remoteEnvPlan(client: AgentClient, request: FarRequest, where: string): Promise<RemoteEnvPlan | null> {
  const names = Object.fromEntries(Object.keys(request.env ?? {}).map((name) => [name, ""]));
  const reply = await client.send({ op: ENV_PLAN_OP, request: { op: request.op, env: names, ...(request.envFlags === undefined ? {} : { envFlags: request.envFlags }) } });
  if (reply.ok) {
    const body = reply as unknown as { withheld?: unknown; cleared?: unknown };
    return {
      withheld: Array.isArray(body.withheld) ? body.withheld.filter((name): name is string => typeof name === "string") : [],
      cleared: typeof body.cleared === "number" ? body.cleared : 0,
    };
  }
  if (reply.error.code !== "unknown_op") throw new AgentError(reply.error.code, reply.error.message);
  if (!shapesEnvironment(request.envFlags)) return null;
  throw new AgentError(
    "internal",
    `the corral on ${where} is an older release that would not apply --clear-env, --keep-env or --no-scrub; install this release there, or leave those flags out`,
  );
}

/** The --explain lines of a remote plan, as a local run words them. */
export function remoteExplainLines(plan: RemoteEnvPlan | null, where: string): string[] {
  if (plan === null) return [`env: built on ${where} (its corral is older and names no withheld variables)`];
  return [`env: built on ${where} from its environment and config`, ...envExplainLines(plan.withheld, plan.cleared)];
}

/** Where a remote call goes, as messages name it. */
export function remoteShown(ctx: CorralContext, flags: SocketFlag): string {
  return flags.via ?? flags.host ?? ctx.process.env.CORRAL_HOST ?? "the other machine";
}

/**
 * Asks the far side for its plan and says it as a local run would: the
 * --explain lines, then the withheld line (unless quiet). Returns the names
 * withheld there (for collect --json's envDropped).
 */
export async function announceRemoteEnv(
  ctx: CorralContext,
  client: AgentClient,
  flags: SocketFlag,
  request: FarRequest,
  options: { readonly explain: boolean; readonly quiet: boolean; readonly names?: boolean; readonly how?: string },
): Promise<readonly string[]> {
  // Nothing to say and nothing asked that an older far side would ignore: no question (a round trip saved).
  if (options.quiet && !options.explain && options.names !== true && !shapesEnvironment(request.envFlags)) return [];
  const where = remoteShown(ctx, flags);
  const plan = await remoteEnvPlan(client, request, where);
  if (options.explain) for (const line of remoteExplainLines(plan, where)) ctx.process.stderr.write(`corral: explain: ${line}\n`);
  const withheld = credentialNames(plan?.withheld ?? []);
  announceWithheld(ctx, withheld, options.quiet, options.how);
  return withheld;
}
