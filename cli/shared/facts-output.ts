// Where `--facts` goes, and writing it without harm (issue 8, issue 15 #8):
// - `-`: one JSON line on corral's stdout after everything else; refused
//   (exit 2) where stdout belongs to the command (`run`).
// - a file that is corral's own stdout or stderr (same device and inode,
//   e.g. `--facts /dev/stdout` or the file `>>` appends to): written through
//   that stream, never reopened with truncation.
// - a symbolic link at the last component: refused (exit 2 when seen before
//   the command starts; 125 if one is planted meanwhile), never followed.
// - a regular file (or a new one): written to a temp file in the same
//   directory, then renamed over it, so a reader sees the old facts or the
//   new ones, never half; where the directory is not writable, the existing
//   file is rewritten in place (opened with O_NOFOLLOW).
// - anything else that exists (/dev/null, a FIFO): written in place.
import { errorLine } from "./error-line.ts";
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import type { CorralContext } from "./context.ts";
import { UsageError } from "./exit-status.ts";
import type { RunFlags } from "./child/flags.ts";
import type { ExitFacts } from "../../lib/core/exit-facts.ts";
import { exitStatusOf } from "../../lib/runtime/signals.ts";

/** The checked `--facts` value. */
export type FactsTarget =
  | { readonly kind: "stream"; readonly fd: 1 | 2 }
  | { readonly kind: "file"; readonly path: string };

/** Checks `--facts` before the command starts; UsageError (exit 2) for a bad value. */
export function checkFactsTarget(value: string | undefined, stdoutIsTheCommands: boolean): FactsTarget | undefined {
  if (value === undefined) return undefined;
  if (value === "") throw new UsageError("--facts needs a file path (or - for stdout), e.g. --facts facts.json");
  if (value === "-") {
    if (stdoutIsTheCommands) {
      throw new UsageError("--facts - is refused here: stdout belongs to the command; give a file, e.g. --facts facts.json");
    }
    return { kind: "stream", fd: 1 };
  }
  const target = resolveFile(value);
  if (target.kind === "symlink") {
    throw new UsageError(`--facts ${value}: is a symbolic link; corral does not write through one (give the file it points to)`);
  }
  return target;
}

/** Writes `facts` to a checked target; on failure one stderr line and status 125. */
export async function writeFacts(context: CorralContext, target: FactsTarget, shown: string, facts: object): Promise<void> {
  const line = JSON.stringify(facts) + "\n";
  try {
    // Checked again: the file may have become our stdout, or a symlink, while the command ran.
    const now = target.kind === "file" ? resolveFile(target.path) : target;
    if (now.kind === "symlink") throw Object.assign(new Error("symlink"), { code: "ELOOP" });
    if (now.kind === "stream") await writeStream(now.fd === 1 ? context.process.stdout : context.process.stderr, line);
    else writeFileSafely(now.path, line);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const why = code === "ELOOP" ? "it is a symbolic link, not followed" : `cannot write (${code})`;
    context.process.stderr.write(errorLine(`--facts ${shown}: ${why}; give a writable path`));
    context.process.exitCode = 125;
  }
}

type Resolved = FactsTarget | { readonly kind: "symlink" };

function resolveFile(file: string): Resolved {
  const same = sameFileAsStdio(file);
  if (same !== null) return { kind: "stream", fd: same };
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return { kind: "symlink" };
  } catch {
    // Not there yet: it will be created.
  }
  return { kind: "file", path: file };
}

/** 1 or 2 when `file` is the very file corral's stdout or stderr is (device and inode). */
function sameFileAsStdio(file: string): 1 | 2 | null {
  let target: fs.Stats;
  try {
    target = fs.statSync(file);
  } catch {
    return null;
  }
  for (const fd of [1, 2] as const) {
    try {
      const own = fs.fstatSync(fd);
      if (own.dev === target.dev && own.ino === target.ino) return fd;
    } catch {
      // that descriptor is closed
    }
  }
  return null;
}

function writeStream(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

let tempCounter = 0;

function writeFileSafely(file: string, text: string): void {
  const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW } = fs.constants;
  let existing: fs.Stats | null = null;
  try {
    existing = fs.lstatSync(file);
  } catch {
    existing = null;
  }
  if (existing !== null && !existing.isFile()) {
    // A device or a FIFO: no rename over it; write where it is.
    const fd = fs.openSync(file, O_WRONLY | O_NOFOLLOW);
    try {
      fs.writeSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
    return;
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.corral-${process.pid}-${Date.now()}-${tempCounter++}.tmp`);
  let fd: number;
  try {
    fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (existing === null || (code !== "EACCES" && code !== "EPERM" && code !== "EROFS")) throw error;
    // The directory is not ours to add to, the file is: rewrite it in place.
    const inPlace = fs.openSync(file, O_WRONLY | O_TRUNC | O_NOFOLLOW);
    try {
      fs.writeSync(inPlace, text);
    } finally {
      fs.closeSync(inPlace);
    }
    return;
  }
  try {
    try {
      fs.writeSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do
    }
    throw error;
  }
}

/**
 * Sets the exit status from the facts and writes `--facts` (last: `--facts -`
 * comes after everything else on stdout). `target` is the value checked
 * before the command started; where none was, stdout is corral's own.
 */
export async function reportFacts(context: CorralContext, flags: Pick<RunFlags, "facts">, facts: ExitFacts, target?: FactsTarget): Promise<void> {
  context.process.exitCode = exitStatusOf(facts);
  const checked = target ?? checkFactsTarget(flags.facts, false);
  if (checked === undefined || flags.facts === undefined) return;
  await writeFacts(context, checked, flags.facts, facts);
}
