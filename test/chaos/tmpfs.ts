// The full-disk fault: a small tmpfs mounted for the run, filled before a
// round so that a job's spill on it runs out of room. Mounting needs
// privileges a machine may not give: then the fault is skipped, with why.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import path from "node:path";

export const TMPFS_BYTES = 4 * 1024 * 1024;

/** A mounted tmpfs, or the reason there is none. */
export type SmallDisk = { readonly dir: string } | { readonly skipped: string };

export function mountSmallDisk(root: string): SmallDisk {
  const dir = path.join(root, "tmpfs");
  mkdirSync(dir, { recursive: true });
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${TMPFS_BYTES},mode=0700`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.status !== 0) return { skipped: `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || `status ${mounted.status}`).trim()})` };
  return { dir };
}

/** Fills the disk but `leave` bytes (a filler file, removed by emptyDisk). */
export function fillDisk(dir: string, leave: number): void {
  const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
  const size = Math.max(0, free - leave);
  writeFileSync(path.join(dir, "filler"), Buffer.alloc(size));
}

export function emptyDisk(dir: string): void {
  for (const name of ["filler"]) rmSync(path.join(dir, name), { force: true });
}

export function unmountSmallDisk(disk: SmallDisk): void {
  if ("dir" in disk) spawnSync("umount", ["-l", disk.dir]);
}
