// The one decision (issue 3, issue 10): which supervisor holds a tree, and
// who keeps a pipe tree's output, each with the one-line reason `--explain`
// and `probe` show. The guardian when it is built ("auto"), or forced either
// way by the config key `guardian` or $CORRAL_GUARDIAN (auto|always|never),
// which wins over the config file; run, collect, PTY sessions and jobs all
// ask here, so a setting honoured by one is honoured by all. Without a
// guardian a pipe falls back to the process group, a terminal session to
// node-pty (not under Bun), and a terminal job (`run --tty`) is refused, as
// it needs the guardian's stop events. Decisions only: nothing here starts
// anything or loads a backend (start.ts does, by the choice made here).
import process from "node:process";
import type { GuardianMode } from "../config/schema.ts";
import { locateGuardian, missingGuardian } from "./guardian/binary.ts";
import type { PtyBackendName, SupervisorName, TreeMode } from "./handle.ts";
import { runtimeTraits } from "../runtime/traits.ts";
import { CorralError } from "../core/corral-error.ts";
import { SpawnError } from "./spawn-error.ts";

/** The guardian was required (`always`) but cannot be used; the message says why. */
export class GuardianUnavailableError extends CorralError {
  override readonly name = "GuardianUnavailableError";
  constructor(message: string) {
    super("spawn_failed", message);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Whether supervision goes through the guardian, and why (one line, for --explain). */
export interface BackendDecision {
  readonly mode: GuardianMode;
  /** The guardian binary to use; null: the fallback (no guardian, or `never`). */
  readonly guardian: string | null;
  readonly why: string;
  /** Without a guardian under `auto`: why there is none and how to build it, for a refusal's message. */
  readonly missing?: string;
}

const MODES: readonly GuardianMode[] = ["auto", "always", "never"];

/** The mode in force: $CORRAL_GUARDIAN when set (checked), else the config's. */
export function guardianMode(configured: GuardianMode, env: Env): GuardianMode {
  const asked = env.CORRAL_GUARDIAN;
  if (asked === undefined || asked === "") return configured;
  if (!(MODES as readonly string[]).includes(asked)) {
    throw new GuardianUnavailableError(`CORRAL_GUARDIAN must be auto, always or never, got ${JSON.stringify(asked)}`);
  }
  return asked as GuardianMode;
}

/** The guardian's part; throws GuardianUnavailableError for `always` without a usable guardian (or a bad $CORRAL_GUARDIAN). */
export function decideBackend(configured: GuardianMode, env: Env): BackendDecision {
  const mode = guardianMode(configured, env);
  if (mode === "never") return { mode, guardian: null, why: "guardian: never", missing: "guardian: never is set (config key guardian or CORRAL_GUARDIAN)" };
  const found = locateGuardian(env);
  if (found.built) return { mode, guardian: found.path, why: `guardian ${found.path}` };
  if (mode === "always") throw new GuardianUnavailableError(`guardian: always, but ${missingGuardian(found)}`);
  return { mode, guardian: null, why: `no guardian: ${found.why}`, missing: missingGuardian(found) };
}

/** The runtime's part: whether node-pty's sessions live here (lib/runtime/traits.ts). */
export function nodePtyWorksHere(): boolean {
  return runtimeTraits().nodePtySessions;
}

/**
 * Who sweeps what the program leaves running. `on-exit`: the tree does, and
 * then says `done` (jobs, like `run`). `by-owner`: the owner calls terminate
 * after the exit (a terminal session, whose screen stays readable meanwhile).
 */
export type TreeSweep = "on-exit" | "by-owner";

/** "auto" picks the guardian when available, else node-pty. */
export type PtyBackendPreference = "auto" | PtyBackendName;

/** What the decision needs: the mode, the sweep, and the settings that force it. */
export interface SupervisorQuestion {
  readonly mode: TreeMode;
  readonly sweep: TreeSweep;
  /** A supervisor by name (tests, probe); default: the one decision. */
  readonly prefer?: "auto" | SupervisorName;
  /** The configured guardian mode (config key `guardian`); $CORRAL_GUARDIAN in `env` wins. Default "auto". */
  readonly guardian?: GuardianMode;
  /** Where $CORRAL_GUARDIAN and the guardian's location are read; default this process's. */
  readonly env?: Env;
}

/** The supervisor a tree gets, and the guardian binary when it is the guardian. */
export interface SupervisorChoice {
  readonly mode: TreeMode;
  readonly sweep: TreeSweep;
  readonly supervisor: SupervisorName;
  /** The guardian binary (supervisor "guardian"), else null. */
  readonly guardian: string | null;
  /** One line for --explain: what was chosen and why. */
  readonly why: string;
}

/** Decides; throws SpawnError("backend-unavailable") with what would do when no supervisor can hold this tree here. */
export function chooseSupervisor(question: SupervisorQuestion): SupervisorChoice {
  const { mode, sweep } = question;
  const env = question.env ?? process.env;
  const choice = (supervisor: SupervisorName, guardian: string | null, why: string): SupervisorChoice => ({ mode, sweep, supervisor, guardian, why });
  switch (question.prefer ?? "auto") {
    case "guardian": {
      const found = locateGuardian(env);
      if (!found.built) throw new SpawnError("backend-unavailable", `${missingGuardian(found)}; or use node-pty`);
      return choice("guardian", found.path, `guardian ${found.path} (asked for by name)`);
    }
    case "node-pty":
      if (mode !== "pty" || sweep !== "by-owner") throw new SpawnError("backend-unavailable", "node-pty holds terminal sessions only");
      if (!nodePtyWorksHere()) throw new SpawnError("backend-unavailable", "node-pty does not work under Bun; use the guardian");
      return choice("node-pty", null, "node-pty (asked for by name)");
    case "process-group":
      if (mode !== "pipe") throw new SpawnError("backend-unavailable", "a process group has no terminal; use the guardian");
      return choice("process-group", null, "process group (asked for by name)");
    case "auto":
      break;
  }
  let decision: BackendDecision;
  try {
    decision = decideBackend(question.guardian ?? "auto", env);
  } catch (error) {
    throw new SpawnError("backend-unavailable", (error as Error).message);
  }
  if (decision.guardian !== null) return choice("guardian", decision.guardian, decision.why);
  const missing = decision.missing ?? decision.why;
  if (mode === "pipe") return choice("process-group", null, `process group (${decision.why})`);
  if (sweep === "on-exit") throw new SpawnError("backend-unavailable", `--tty jobs need the guardian, and ${missing}`);
  if (!nodePtyWorksHere()) throw new SpawnError("backend-unavailable", `under Bun, terminal sessions need the guardian: ${missing}`);
  return choice("node-pty", null, `node-pty (${decision.why})`);
}

/** corral's own stdout and stderr descriptors, to hand a guardian for collect --live's tee (stderr null when merged). */
export interface TeeDescriptors {
  readonly stdout: number;
  readonly stderr: number | null;
}

/** What the capture decision needs (collect). */
export interface CaptureQuestion {
  /** The pipe tree's supervisor would be the guardian (chooseSupervisor; false when it would refuse). */
  readonly guardian: boolean;
  /** --live: every byte also goes to corral's own stdout/stderr as it comes. */
  readonly live: boolean;
  /** --spill: the whole stream is also written to a file. */
  readonly spill: boolean;
  /** The descriptors of corral's own streams when they can be handed down (null: an in-process caller's streams). */
  readonly handed: TeeDescriptors | null;
}

/** Who keeps a pipe tree's output: the guardian (natively) or JavaScript, and the reason. */
export interface CaptureChoice {
  /** --live under the guardian: the descriptors it writes each stream to itself; null: JavaScript tees (with --live). */
  readonly tee: TeeDescriptors | null;
  /** JavaScript tees (TeeSink): --live without a guardian tee. */
  readonly jsTee: boolean;
  /** The guardian writes the spill file(s) itself; the stores adopt head and tail. */
  readonly externalSpill: boolean;
  /** The guardian may keep head, tail and line counts itself (nothing streams through JavaScript). */
  readonly nativeCapture: boolean;
  /** One line for --explain. */
  readonly why: string;
}

/**
 * collect's capture. --live under the guardian: it writes every byte to our
 * own stdout/stderr itself (tee, native/capture.c), so the stream never
 * passes through JavaScript and memory stays bounded whatever the volume.
 * Without a descriptor to hand down, or without the guardian, JavaScript
 * tees. A runtime that passes a child no descriptor past 2 (Deno) gives the
 * guardian the tee targets as its own fd 1 and 2 (guardian/launch.ts), which
 * works only when they are our fd 1 and 2; other descriptors, JavaScript
 * tees. Under the guardian the spill file is written by it (no copy through
 * JavaScript) unless JavaScript tees and so needs every byte; and unless
 * JavaScript tees, nobody needs the bytes as they come: the guardian keeps
 * head, tail and counts, and the heartbeat reads its progress events.
 */
export function decideCapture(question: CaptureQuestion): CaptureChoice {
  const { guardian, live, spill, handed } = question;
  const offered = live && guardian ? handed : null;
  const atOwnStdio = offered !== null && offered.stdout === 1 && (offered.stderr ?? 2) === 2;
  const tee = offered !== null && !runtimeTraits().childDescriptorsPastStdio && !atOwnStdio ? null : offered;
  const jsTee = live && tee === null;
  const externalSpill = spill && !jsTee && guardian;
  const nativeCapture = !jsTee;
  const keeper = !guardian ? "JavaScript keeps the output (no guardian)" : jsTee ? "JavaScript tees and keeps the output" : "the guardian keeps the output";
  const why = `${keeper}${tee !== null ? ", and tees it to corral's own descriptors" : ""}${externalSpill ? ", and writes the spill file" : ""}`;
  return { tee, jsTee, externalSpill, nativeCapture, why };
}

/**
 * collect's capture for a pipe tree, with the supervisor the one decision
 * gives it (config key `guardian`, $CORRAL_GUARDIAN in `env`): the guardian
 * keeps the output when it holds the tree; when it would not (or the choice
 * would be refused: starting the tree then says why), JavaScript does.
 */
export function decidePipeCapture(settings: Pick<SupervisorQuestion, "guardian" | "env">, question: Omit<CaptureQuestion, "guardian">): CaptureChoice {
  let guardian: boolean;
  try {
    guardian = chooseSupervisor({ mode: "pipe", sweep: "on-exit", ...settings }).supervisor === "guardian";
  } catch {
    guardian = false;
  }
  return decideCapture({ ...question, guardian });
}

/**
 * Who writes a job's spill file: its guardian (`--job-spill`, native/
 * job-spill.c: every byte reaches the file even while no agent owns the
 * job), or the agent's store when the job runs without a guardian.
 */
export function jobSpillByGuardian(choice: SupervisorChoice, spill: boolean): boolean {
  return spill && choice.supervisor === "guardian";
}

/** One decision as probe reports it: the supervisor (null: refused here) and the line `--explain` would print. */
export interface DecisionLine {
  readonly supervisor: SupervisorName | null;
  readonly why: string;
}

/** Every decision corral would make here, each with its reason (`corral probe`). */
export interface DecisionsHere {
  /** run, collect and MCP runs: a pipe tree swept on exit. */
  readonly pipes: DecisionLine;
  /** pty start: a terminal session swept by its owner. */
  readonly ptySessions: DecisionLine;
  /** run --job: a pipe tree kept by the agent. */
  readonly jobs: DecisionLine;
  /** run --tty: a terminal job. */
  readonly ttyJobs: DecisionLine;
  /** Who keeps collect's output (no --live), and with --live on corral's own stdout and stderr. */
  readonly capture: { readonly keeper: "guardian" | "javascript"; readonly why: string; readonly live: string };
}

/** Asks chooseSupervisor and decideCapture what they would choose here, without starting anything. */
export function decisionsHere(configured: GuardianMode, env: Env): DecisionsHere {
  const ask = (mode: TreeMode, sweep: TreeSweep): DecisionLine => {
    try {
      const choice = chooseSupervisor({ mode, sweep, guardian: configured, env });
      return { supervisor: choice.supervisor, why: choice.why };
    } catch (error) {
      return { supervisor: null, why: `refused: ${(error as Error).message}` };
    }
  };
  const pipes = ask("pipe", "on-exit");
  const guardian = pipes.supervisor === "guardian";
  const kept = decideCapture({ guardian, live: false, spill: false, handed: null });
  const live = decideCapture({ guardian, live: true, spill: false, handed: { stdout: 1, stderr: 2 } });
  return {
    pipes,
    ptySessions: ask("pty", "by-owner"),
    jobs: ask("pipe", "on-exit"),
    ttyJobs: ask("pty", "on-exit"),
    capture: { keeper: kept.nativeCapture && guardian ? "guardian" : "javascript", why: kept.why, live: live.why },
  };
}
