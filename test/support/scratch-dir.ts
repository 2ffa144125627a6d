// A temporary directory that a test removes when it ends: thousands of runs
// of the suite must not leave their scratch files in /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestContext } from "node:test";

/** A new directory `<tmp>/<prefix>XXXXXX`, removed after the test `t` (or at exit when no test owns it). */
export function scratchDir(t: Pick<TestContext, "after"> | undefined, prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (t !== undefined) t.after(remove);
  else process.once("exit", remove);
  return dir;
}
