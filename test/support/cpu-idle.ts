// How much of the machine's CPU went unused lately, for the suite's
// scheduler (run-files.ts): most test files spend much of their time waiting
// on programs (a bound a test must outwait, a sleep-paced program, strace),
// so on an idle machine more of them can run at once than there are cores;
// on a machine others load, fewer. Read from /proc/stat (the whole machine,
// not only the suite's processes: another user's load counts too).
import { readFileSync } from "node:fs";
import os from "node:os";

interface Sample {
  readonly idle: number;
  readonly total: number;
}

function sample(): Sample | undefined {
  try {
    const first = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal (guest time is within user)
    const fields = first.trim().split(/\s+/).slice(1, 9).map(Number);
    if (fields.length < 5 || fields.some((n) => !Number.isFinite(n))) return undefined;
    return { idle: fields[3]! + fields[4]!, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** The cores this process may use. */
export function cores(): number {
  return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

/**
 * Idle cores between one call of `read()` and the next (0 to cores()), or
 * undefined where /proc/stat cannot be read (the caller then goes by counts).
 */
export class IdleCores {
  #last = sample();

  read(): number | undefined {
    const now = sample();
    const last = this.#last;
    this.#last = now;
    if (now === undefined || last === undefined || now.total <= last.total) return undefined;
    return ((now.idle - last.idle) / (now.total - last.total)) * cores();
  }
}
