// The agent must answer a screen within its bound all through the faults:
// one `pty screen` of a session no fault touches, timed. A request cut by
// the agent's own SIGKILL is asked again at once (the next command starts a
// new agent, which re-adopts); both count against the bound.
import { readFileSync } from "node:fs";
import path from "node:path";
import { corralRun, type RunEnv } from "./cli.ts";

export interface ScreenProbe {
  readonly ok: boolean;
  readonly ms: number;
  readonly error: string;
}

export async function probeScreen(env: RunEnv, session: string): Promise<ScreenProbe> {
  const t0 = Date.now();
  let ran = await corralRun(env, ["pty", "screen", session, "--json"], 60_000);
  if (ran.code !== 0) ran = await corralRun(env, ["pty", "screen", session, "--json"], 60_000);
  return { ok: ran.code === 0, ms: Date.now() - t0, error: ran.stderr.trim().slice(0, 300) };
}

export function agentPidOf(env: RunEnv): number {
  try {
    return Number(readFileSync(path.join(env.stateDir, "agent.pid"), "utf8").trim());
  } catch {
    return 0;
  }
}
