// The bounded stores `collect` captures into: one per stream, or one for
// both with --merge. Spill files are FILE.stdout/FILE.stderr for separate
// streams and FILE itself for a merged one.
import { closeSync, constants, openSync } from "node:fs";
import { BoundedStore, SpillError } from "../../../lib/output/bounded-store.ts";
import { UsageError } from "../../shared/exit-status.ts";
import { errorLine } from "../../shared/error-line.ts";
import type { TeeDescriptors } from "../../../lib/supervise/decide.ts";

/** The store(s) of one `collect` run. */
export interface CollectStores {
  readonly stdout: BoundedStore;
  /** null with --merge: stderr goes into `stdout`. */
  readonly stderr: BoundedStore | null;
}

export interface StoreLimits {
  readonly headBytes: number;
  readonly maxBytes: number;
  /** --head-lines/--tail-lines: a supervisor keeping the stream applies them too (lib/output/bounded-store.ts). */
  readonly headLines?: number | undefined;
  readonly tailLines?: number | undefined;
  readonly spill: string | undefined;
  readonly merge: boolean;
  /** The guardian writes the spill files itself (its fast path); the stores only adopt head and tail. */
  readonly external?: boolean;
  /** The guardian may keep head, tail and counts itself (nothing to stream through JavaScript). */
  readonly nativeCapture?: boolean;
  /** --live under the guardian: the descriptors it also writes each stream to (tee). */
  readonly tee?: TeeDescriptors | null;
}

/** corral's own stdout and stderr descriptors (stderr null with --merge): the capture decision's (lib/supervise/decide.ts). */
export type { TeeDescriptors } from "../../../lib/supervise/decide.ts";

/** Opens the stores; an unusable spill path is a usage error (exit 2). */
export async function openCollectStores(limits: StoreLimits): Promise<CollectStores> {
  const open = (spillPath: string | undefined, teeFd: number | null | undefined) => {
    const tee = { headLines: limits.headLines, tailLines: limits.tailLines, ...(teeFd === null || teeFd === undefined ? {} : { teeFd }) };
    if (limits.external !== true || spillPath === undefined) {
      return BoundedStore.open({ headBytes: limits.headBytes, tailBytes: limits.maxBytes, spillPath, nativeCapture: limits.nativeCapture === true, ...tee });
    }
    // Created here so a bad path is still a usage error before the child runs.
    try {
      // Created here so a bad path is exit 2 before the command starts; a symlink is refused.
      closeSync(openSync(spillPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666));
    } catch (error) {
      throw new SpillError(spillPath, "open", error);
    }
    return BoundedStore.open({ headBytes: limits.headBytes, tailBytes: limits.maxBytes, spillPath, externalSpill: true, ...tee });
  };
  const { spill, merge } = limits;
  try {
    if (merge) return { stdout: await open(spill, limits.tee?.stdout), stderr: null };
    const stdout = await open(spill === undefined ? undefined : `${spill}.stdout`, limits.tee?.stdout);
    const stderr = await open(spill === undefined ? undefined : `${spill}.stderr`, limits.tee?.stderr);
    return { stdout, stderr };
  } catch (error) {
    if (error instanceof SpillError) throw new UsageError(`--spill: ${error.message}`);
    throw error;
  }
}

/** Closes every store (flushing spills); names a spill that failed on stderr. */
export async function closeCollectStores(stores: CollectStores, stderr: NodeJS.WriteStream): Promise<void> {
  for (const store of [stores.stdout, stores.stderr]) {
    if (store === null) continue;
    try {
      await store.close();
    } catch {
      // reported below from spillError
    }
    const failed = store.spillError;
    if (failed !== null) stderr.write(errorLine(`--spill: ${failed.message}; the spill file is incomplete`));
  }
}
