// What this machine lets corral do: the guardian's own `--probe` (it tries
// each capability for real), parsed into typed lines for `corral probe`.
import { spawnSync } from "node:child_process";
import { locateGuardian, type GuardianBinary } from "./binary.ts";

/** One line of `corral-guardian --probe`. */
export interface Capability {
  readonly name: string;
  readonly ok: boolean;
  /** Core capabilities are needed for the guardian to be used; the others only weaken guarantees. */
  readonly core: boolean;
  readonly detail: string;
}

/** The guardian binary and, when it is built, what it found. */
export interface GuardianReport {
  readonly binary: GuardianBinary;
  readonly capabilities: readonly Capability[];
  /** Built and every core capability works: run/collect/pty use it. */
  readonly usable: boolean;
  /** Why it is not usable, when it is not. */
  readonly why: string | null;
}

/** Parses `<name> ok|missing core|optional <detail>` lines. */
export function parseProbeOutput(text: string): Capability[] {
  const found: Capability[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\S+) (ok|missing) (core|optional) ?(.*)$/.exec(line);
    if (match) found.push({ name: match[1] as string, ok: match[2] === "ok", core: match[3] === "core", detail: match[4] ?? "" });
  }
  return found;
}

/** Runs the guardian's probe (a few ms: it forks once for the PTY check). */
export function probeGuardian(binary: GuardianBinary = locateGuardian(undefined, { build: false })): GuardianReport {
  if (!binary.built) return { binary, capabilities: [], usable: false, why: binary.why };
  const result = spawnSync(binary.path, ["--probe"], { encoding: "utf8", timeout: 10_000 });
  if (result.error) {
    return { binary, capabilities: [], usable: false, why: `${binary.path} --probe failed: ${result.error.message}` };
  }
  const capabilities = parseProbeOutput(result.stdout);
  const missing = capabilities.filter((c) => c.core && !c.ok).map((c) => c.name);
  if (capabilities.length === 0) {
    return { binary, capabilities, usable: false, why: `${binary.path} --probe printed nothing (status ${result.status})` };
  }
  const usable = result.status === 0 && missing.length === 0;
  return { binary, capabilities, usable, why: usable ? null : `core capabilities missing: ${missing.join(", ") || "(see status)"}` };
}
