// The faults a chaos round injects, each a small function over what the
// round runs: the agent SIGKILLed (the next command starts a new one, which
// re-adopts), `agent restart`, a guardian SIGKILLed or SIGSTOPped for a
// while, a client (collect, jobs wait) SIGKILLed or SIGSTOPped for a while.
// Each returns a line saying what it did (for the replay log), or null when
// it found nothing to act on.
import { readFileSync } from "node:fs";
import path from "node:path";
import { corralRun, jsonOf, type RunEnv } from "./cli.ts";
import { hasEnv } from "../support/processes.ts";
import type { Random } from "./random.ts";
import { clientProcess, type ClientItem, type Item, type Session, type SpillJob } from "./workload.ts";

export const FAULTS = ["agent-kill", "agent-restart", "guardian-kill", "guardian-stop", "client-kill", "client-stop"] as const;
export type FaultName = (typeof FAULTS)[number];

/**
 * Signals `pid` if it is one of this run's processes (it carries the run's
 * marker): the agent.pid file or a listed pid can be stale, and its number
 * taken by another test's process by now (pids wrap); a chaos run once
 * SIGKILLed another test's `corral pty list` that way.
 */
function send(env: RunEnv, pid: number, signal: NodeJS.Signals): boolean {
  if (!hasEnv(pid, env.marker, env.markerValue)) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return 0;
  }
}

function agentPid(env: RunEnv): number {
  try {
    return Number(readFileSync(path.join(env.stateDir, "agent.pid"), "utf8").trim());
  } catch {
    return 0;
  }
}

/** The guardian of a job or session: the parent of its program (whose pid the agent lists). */
async function guardianOf(env: RunEnv, target: SpillJob | Session): Promise<number> {
  if (target.kind === "job") {
    const list = jsonOf<{ jobs: { name: string | null; pid: number; state: string }[] }>(await corralRun(env, ["jobs", "--json"], 30_000));
    const job = list?.jobs.find((j) => j.name === target.name && j.state !== "done");
    return job === undefined ? 0 : parentOf(job.pid);
  }
  const list = jsonOf<{ sessions: { name: string | null; pid: number; alive: boolean }[] }>(await corralRun(env, ["pty", "list", "--json"], 30_000));
  const session = list?.sessions.find((s) => s.name === target.name && s.alive);
  return session === undefined ? 0 : parentOf(session.pid);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Injects one fault; what it did, or null. */
export async function inject(fault: FaultName, env: RunEnv, rng: Random, items: readonly Item[]): Promise<string | null> {
  switch (fault) {
    case "agent-kill": {
      const pid = agentPid(env);
      return pid > 0 && send(env, pid, "SIGKILL") ? `SIGKILL agent ${pid}` : null;
    }
    case "agent-restart": {
      const ran = await corralRun(env, ["agent", "restart"], 60_000);
      return `agent restart (exit ${ran.code})`;
    }
    case "guardian-kill":
    case "guardian-stop": {
      const targets = items.filter((i): i is SpillJob | Session => (i.kind === "job" || i.kind === "session") && i.started && !i.guardianKilled);
      if (targets.length === 0) return null;
      const target = rng.pick(targets);
      const guardian = await guardianOf(env, target);
      if (guardian <= 1 || guardian === agentPid(env)) return null;
      if (fault === "guardian-kill") {
        if (!send(env, guardian, "SIGKILL")) return null;
        target.guardianKilled = true;
        return `SIGKILL guardian ${guardian} of ${target.name}`;
      }
      const ms = rng.int(200, 1500);
      if (!send(env, guardian, "SIGSTOP")) return null;
      await pause(ms);
      send(env, guardian, "SIGCONT");
      return `SIGSTOP guardian ${guardian} of ${target.name} for ${ms} ms`;
    }
    case "client-kill":
    case "client-stop": {
      const running = items.filter((i): i is ClientItem => (i.kind === "collect" || i.kind === "wait") && !i.killed && clientProcess(i) !== null);
      if (running.length === 0) return null;
      const target = rng.pick(running);
      const child = clientProcess(target)!;
      if (fault === "client-kill") {
        target.killed = true;
        child.kill("SIGKILL");
        return `SIGKILL client ${target.label} (${child.pid})`;
      }
      const ms = rng.int(200, 1500);
      child.kill("SIGSTOP");
      await pause(ms);
      child.kill("SIGCONT");
      return `SIGSTOP client ${target.label} (${child.pid}) for ${ms} ms`;
    }
  }
}
