// The body of `corral probe`: gathers the report (lib/supervise/guardian/capabilities.ts
// does the guardian part), prints it as text or JSON, and sets the status:
// 0 when the guardian is in use and a PTY can be allocated, 3 when corral
// works on its fallbacks (degraded: the report lists what is lost and the
// absolute command that fixes it), 1 when no process can run here.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, lstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import type { ProbeFlags } from "./flags.ts";
import { CORRAL_VERSION } from "../../shared/version.ts";
import {
  buildForPackage,
  findCompiler,
  type Guarantee,
  type GuardianReport,
  type GuardianSource,
  guaranteesLostWithoutGuardian,
  locateGuardian,
  packageRoot,
  probeGuardian,
} from "../../../lib/supervise/guardian-setup.ts";
import { runtimeTraits, type RuntimeTraits } from "../../../lib/runtime/traits.ts";
import { checkStateDir, socketPath, stateDirPath } from "../../../lib/agent/client/state-dir.ts";
import { socketIsLive } from "../../../lib/agent/client/socket-probe.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import { AgentError } from "../../../lib/agent/protocol/messages.ts";
import { loadConfigFile } from "../../../lib/config/load.ts";
import { type DecisionsHere, decisionsHere, guardianMode } from "../../../lib/supervise/decide.ts";
import type { GuardianMode } from "../../../lib/config/schema.ts";

/** Everything `corral probe --json` prints. */
export interface ProbeReport {
  readonly corral: string;
  readonly runtime: { readonly name: string; readonly version: string };
  readonly platform: string;
  readonly guardian: {
    readonly built: boolean;
    readonly path: string | null;
    /** Where it was found: CORRAL_GUARDIAN_BIN, the package's native/build, or the per-user cache. */
    readonly source: GuardianSource | null;
    readonly usable: boolean;
    /** `guardian: never` in force (config key or $CORRAL_GUARDIAN): built and working, but not used. */
    readonly turnedOff: boolean;
    readonly why: string | null;
    readonly capabilities: GuardianReport["capabilities"];
  };
  readonly pty: {
    readonly backend: "guardian" | "node-pty" | "none";
    readonly ok: boolean;
    readonly nodePty: { readonly loadable: boolean; readonly why: string | null };
  };
  readonly process: { readonly ok: boolean; readonly why: string | null };
  /** `filesReplaced`: the answering agent was started from files replaced since (agent status); null when it cannot tell. */
  readonly agent: { readonly socket: string; readonly answering: boolean; readonly filesReplaced: boolean | null };
  readonly stateDir: { readonly path: string; readonly exists: boolean; readonly mode: string | null; readonly ok: boolean; readonly problem: string | null };
  /** ok (status 0), degraded (3: works on the fallbacks, `lost` says what is missing), unusable (1). */
  readonly status: "ok" | "degraded" | "unusable";
  /** True only for status ok. */
  readonly ok: boolean;
  /** What is lost without the guardian; empty when it is in use. */
  readonly lost: readonly Guarantee[];
  /** The absolute command that builds the guardian, or what undoes `guardian: never`, when that is the fix. */
  readonly fix: string | null;
  /** Whether a C compiler (needed by the fix) is on PATH. */
  readonly compiler: string | null;
  /** The `corral` command's first door (cli/native-client-install.ts): the native client, or the JavaScript CLI for every command. */
  readonly client: { readonly native: boolean; readonly path: string | null; readonly forced: "js" | "native" | null };
  /** What lib/supervise/decide.ts would choose here for each kind of tree and for collect's output, with the reasons `--explain` prints. */
  readonly decisions: DecisionsHere;
}

/** probe's exit statuses (README "Exit statuses"). */
export const ProbeStatus = { ok: 0, unusable: 1, degraded: 3 } as const;

type NodePtyModule = typeof import("@lydell/node-pty");

/** node-pty loads, and (when `tryPty`) really opens a PTY running `true`. */
async function checkNodePty(tryPty: boolean, runtime: RuntimeTraits): Promise<{ loadable: boolean; why: string | null; ptyOk: boolean }> {
  // Its addon loads under Bun, but its sessions die at once (lib/runtime/traits.ts).
  if (!runtime.nodePtySessions) return { loadable: false, why: "node-pty does not work under Bun (terminal sessions need the guardian)", ptyOk: false };
  let mod: NodePtyModule;
  try {
    const m = (await import("@lydell/node-pty")) as NodePtyModule & { default?: NodePtyModule };
    mod = typeof m.spawn === "function" ? m : (m.default as NodePtyModule);
  } catch (error) {
    return { loadable: false, why: (error as Error).message.split("\n")[0] ?? "cannot load", ptyOk: false };
  }
  if (!tryPty) return { loadable: true, why: null, ptyOk: false };
  try {
    const pty = mod.spawn("/bin/sh", ["-c", "exit 0"], { cols: 80, rows: 24 });
    const code = await new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    return { loadable: true, why: null, ptyOk: code === 0 };
  } catch (error) {
    return { loadable: true, why: `loads, but cannot open a PTY: ${(error as Error).message}`, ptyOk: false };
  }
}

function checkProcess(): { ok: boolean; why: string | null } {
  const r = spawnSync("/bin/sh", ["-c", "exit 7"]);
  if (r.error) return { ok: false, why: `cannot start /bin/sh: ${r.error.message}` };
  return r.status === 7 ? { ok: true, why: null } : { ok: false, why: `/bin/sh -c 'exit 7' reported ${r.status}` };
}

function checkDir(dir: string): ProbeReport["stateDir"] {
  if (!existsSync(dir)) return { path: dir, exists: false, mode: null, ok: true, problem: null };
  const mode = (lstatSync(dir).mode & 0o777).toString(8).padStart(4, "0");
  try {
    checkStateDir(dir);
    return { path: dir, exists: true, mode, ok: true, problem: null };
  } catch (error) {
    return { path: dir, exists: true, mode, ok: false, problem: (error as Error).message };
  }
}

/** The config file's `guardian` setting and where it was read ("auto" and null without one). */
async function configuredGuardian(env: Readonly<Record<string, string | undefined>>): Promise<{ configured: GuardianMode; file: string | null }> {
  try {
    const loaded = await loadConfigFile(env);
    return { configured: loaded.config.guardian, file: loaded.path };
  } catch {
    // A broken config file is `corral config`'s report; probe judges the environment alone.
    return { configured: "auto", file: null };
  }
}

/** Which setting says `guardian: never` and what undoes it, or null when the guardian may be used. */
function guardianTurnedOff(env: Readonly<Record<string, string | undefined>>, configured: GuardianMode, file: string | null): { why: string; fix: string } | null {
  try {
    if (guardianMode(configured, env) !== "never") return null;
  } catch (error) {
    return { why: (error as Error).message, fix: "set CORRAL_GUARDIAN to auto, always or never" };
  }
  if (env.CORRAL_GUARDIAN === "never") return { why: "CORRAL_GUARDIAN=never", fix: "unset CORRAL_GUARDIAN" };
  return { why: `guardian: never in ${file ?? "the config file"}`, fix: `remove guardian: never from ${file ?? "the config file"}` };
}

/** Gathers the whole report. */
export async function gatherProbe(env: Readonly<Record<string, string | undefined>>): Promise<ProbeReport> {
  const runtime = runtimeTraits();
  // Like any command that needs it, probe builds a missing guardian when a
  // compiler is here (npm ran no install script: git installs, --ignore-scripts).
  const found = probeGuardian(locateGuardian(env));
  // The one backend decision's setting: under `never` nothing uses the guardian, so the
  // report says what really runs (node-pty terminals, process groups) and what that loses.
  const { configured, file } = await configuredGuardian(env);
  const offBy = guardianTurnedOff(env, configured, file);
  const guardian = offBy === null ? found : { ...found, usable: false, why: `turned off: ${offBy.why}` };
  const guardianPty = guardian.usable && guardian.capabilities.some((c) => c.name === "pty" && c.ok);
  const nodePty = await checkNodePty(!guardianPty, runtime);
  // The backend a session really gets is the one decision's (lib/supervise/decide.ts); the checks above say whether it can open a PTY.
  const decisions = decisionsHere(configured, env);
  const chosen = decisions.ptySessions.supervisor;
  const backend = chosen === "guardian" ? "guardian" : chosen === "node-pty" ? "node-pty" : "none";
  const ptyOk = backend === "guardian" ? guardianPty : backend === "node-pty" && nodePty.ptyOk;
  const socket = socketPath(env);
  const proc = checkProcess();
  const status = !proc.ok ? "unusable" : guardian.usable && ptyOk ? "ok" : "degraded";
  const binary = guardian.binary;
  return {
    corral: CORRAL_VERSION,
    runtime: { name: runtime.name, version: runtime.version },
    platform: `${process.platform} ${process.arch}`,
    guardian: {
      built: guardian.binary.built,
      path: guardian.binary.path,
      source: binary.built ? binary.source : null,
      usable: guardian.usable,
      turnedOff: offBy !== null,
      why: guardian.why,
      capabilities: guardian.capabilities,
    },
    pty: { backend, ok: ptyOk, nodePty: { loadable: nodePty.loadable, why: nodePty.why } },
    process: proc,
    agent: await agentHere(socket, env),
    stateDir: checkDir(stateDirPath(env)),
    status,
    ok: status === "ok",
    lost: guardian.usable ? [] : guaranteesLostWithoutGuardian(runtime, nodePty.ptyOk),
    fix: offBy !== null ? offBy.fix : binary.built ? null : binary.fix,
    compiler: findCompiler(env),
    client: nativeClient(env),
    decisions,
  };
}

/** Whether dist/corral, what an install links as `corral`, is the native client (an ELF file) or a link to the JavaScript CLI. */
function nativeClient(env: Readonly<Record<string, string | undefined>>): ProbeReport["client"] {
  const forced = env.CORRAL_CLIENT === "js" || env.CORRAL_CLIENT === "native" ? env.CORRAL_CLIENT : null;
  const root = packageRoot();
  const bin = root === null ? null : path.join(root, "dist", "corral");
  if (bin === null) return { native: false, path: null, forced };
  try {
    if (lstatSync(bin).isSymbolicLink()) return { native: false, path: bin, forced };
    const head = new Uint8Array(4);
    const fd = openSync(bin, "r");
    try {
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
    return { native: head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46, path: bin, forced };
  } catch {
    return { native: false, path: null, forced };
  }
}

/** The report as text, one fact a line. */
export function formatProbe(r: ProbeReport): string {
  const lines = [`corral ${r.corral} on ${r.runtime.name} ${r.runtime.version} (${r.platform})`];
  const g = r.guardian;
  lines.push(`guardian      ${g.usable ? "in use" : g.turnedOff ? "built, not used" : g.built ? "built, not usable" : "not built"}  ${g.path ?? ""}`.trimEnd());
  if (g.why) lines.push(`              why: ${g.why}`);
  for (const c of g.capabilities) lines.push(`  ${c.name.padEnd(18)} ${(c.ok ? "ok" : "missing").padEnd(8)} ${c.core ? "core    " : "optional"}  ${c.detail}`);
  lines.push(`pty backend   ${r.pty.backend}${r.pty.backend === "none" ? " (no PTY can be allocated)" : r.pty.ok ? "" : " (chosen, but it cannot open a PTY here)"}`);
  lines.push(`node-pty      ${r.pty.nodePty.loadable ? "loadable" : "not loadable"}${r.pty.nodePty.why ? `: ${r.pty.nodePty.why}` : ""}`);
  lines.push(`processes     ${r.process.ok ? "ok" : `cannot run: ${r.process.why}`}`);
  const door = r.client.native
    ? `native        ${r.client.path} (session and job commands are answered by the agent without a JavaScript start)`
    : "JavaScript    every command starts the JavaScript CLI (the native client was not built: no C compiler at install?)";
  lines.push(`client        ${door}${r.client.forced !== null ? `; CORRAL_CLIENT=${r.client.forced} in force` : ""}`);
  const chosen = r.decisions;
  lines.push(`run           ${chosen.pipes.why}`);
  lines.push(`pty sessions  ${chosen.ptySessions.why}`);
  lines.push(`jobs          ${chosen.jobs.why}; run --tty: ${chosen.ttyJobs.why}`);
  lines.push(`collect       ${chosen.capture.why}; with --live: ${chosen.capture.live}`);
  const replaced = r.agent.filesReplaced === true
    ? "; it was started from files an upgrade or a rebuild has replaced since, so it runs none of the native client's commands: corral agent restart brings up this install's"
    : "";
  lines.push(`agent socket  ${r.agent.socket} (${r.agent.answering ? `an agent answers${replaced}` : "no agent answers"})`);
  const d = r.stateDir;
  lines.push(`state dir     ${d.path} ${!d.exists ? "(not created yet; corral creates it 0700)" : d.ok ? `(mode ${d.mode}, ours)` : `PROBLEM: ${d.problem}`}`);
  if (r.status === "ok") lines.push("ok: corral can run processes and allocate PTYs here, with the guardian's guarantees");
  else if (r.status === "unusable") lines.push("NOT ok: corral cannot run processes here (see above)");
  else {
    lines.push(`degraded: corral works here without the guardian${r.pty.ok ? "" : " and without terminal sessions"}; lost:`);
    for (const g of r.lost) lines.push(`  ${g.name.padEnd(23)} ${g.lost}`);
  }
  if (r.fix !== null) {
    lines.push(`fix: ${r.fix}`);
    if (r.compiler === null && !r.guardian.turnedOff) lines.push("     (needs a C compiler on PATH first: cc, gcc or clang, e.g. apt-get install gcc)");
  }
  return lines.join("\n") + "\n";
}

/** `probe --build`: builds the guardian for this copy of corral, one line on stderr either way. */
function buildNow(env: Readonly<Record<string, string | undefined>>, stderr: CorralContext["process"]["stderr"]): void {
  const root = packageRoot();
  if (root === null) {
    stderr.write("corral: cannot build the guardian: the corral package root is not found\n");
    return;
  }
  const result = buildForPackage(root, env);
  stderr.write(result.ok ? `corral: guardian ready: ${result.guardian}\n` : `corral: the guardian was not built: ${result.why}\n`);
}

/** `corral probe [--json]`. */
export async function probeAction(this: CorralContext, flags: ProbeFlags): Promise<void> {
  if (flags.build) buildNow(this.process.env, this.process.stderr);
  const report = await gatherProbe(this.process.env);
  this.process.stdout.write(flags.json ? JSON.stringify(report) + "\n" : formatProbe(report));
  this.process.exitCode = ProbeStatus[report.status];
}

/**
 * The agent at `socket`: whether one answers, and whether the files it was
 * started from were replaced since (an upgrade: every command still works,
 * each paying a runtime's start, until `agent restart`). Never starts one.
 */
async function agentHere(socket: string, env: Readonly<Record<string, string | undefined>>): Promise<ProbeReport["agent"]> {
  if (!await socketIsLive(socket)) return { socket, answering: false, filesReplaced: null };
  let client: AgentClient | undefined;
  try {
    // Loaded only when an agent answers: connecting checks its socket is ours, as every command does.
    const { connectOrStart } = await import("../../../lib/agent/client/auto-start.ts");
    client = await connectOrStart({ socket, start: false, env });
    try {
      await client.hello();
    } catch (error) {
      // An agent of another protocol still answers agent-status (handlers/agent-status.ts).
      if (!(error instanceof AgentError && error.code === "version_mismatch")) throw error;
    }
    const status = await client.call({ op: "agent-status" }) as { filesReplaced?: boolean };
    return { socket, answering: true, filesReplaced: status.filesReplaced ?? null };
  } catch {
    return { socket, answering: true, filesReplaced: null };
  } finally {
    client?.close();
  }
}
