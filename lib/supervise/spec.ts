// What the caller asks for when it starts a process: explicit, never a shell
// string. run, collect, jobs and the agent all describe children this way,
// so a backend (process group here, the guardian later) sees one shape.
import type { ByteSink, StreamCapture } from "../output/byte-sink.ts";

/**
 * Where a child's stream goes. `inherit`: corral's own fd. `pipe`: a stream
 * the caller reads (the handle's `stdout`). `ignore`: /dev/null.
 * `{ sink }`: every byte is written into the sink, with backpressure;
 * with `capture`, a supervisor that can (the guardian) keeps the stream
 * itself by that capture's limits, writes only the head into the sink and
 * hands the end to the capture's result; another streams every byte.
 */
export type StdioChoice = "inherit" | "pipe" | "ignore" | { readonly sink: ByteSink; readonly capture?: StreamCapture | null };

/** Where collected bytes go (lib/output/byte-sink.ts). */
export type { ByteSink, StreamCapture } from "../output/byte-sink.ts";

/** One process to start and supervise. */
export interface SpawnSpec {
  /** argv[0] is looked up on PATH (of `env`) unless it contains a slash. */
  readonly argv: readonly [string, ...string[]];
  /** Working directory; must exist and be a directory. Default: corral's. */
  readonly cwd?: string;
  /** The child's whole environment (build it with lib/env buildChildEnv). */
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: "inherit" | "pipe" | "ignore";
  readonly stdout?: StdioChoice;
  /** `"stdout"`: the child's fd 2 is the same pipe as its fd 1 (as `2>&1`). */
  readonly stderr?: StdioChoice | "stdout";
  /** Time between SIGTERM and SIGKILL, and the longest wait for output EOF after exit. */
  readonly graceMs: number;
  /** Terminate the tree after this long (ExitFacts.timedOut); none when undefined. */
  readonly timeoutMs?: number;
  /** Aborting terminates the tree (not counted as a timeout). */
  readonly signal?: AbortSignal;
  /** Do not terminate what the child leaves running in its group when it exits. */
  readonly leaveRunning?: boolean;
  /**
   * Called once, as soon as the child's exit is known and before what it
   * left running is swept: the one moment a caller can still see (and name)
   * the survivors the sweep is about to end (`corral mcp`'s run).
   */
  readonly onChildExit?: (pid: number) => void;
}

/** A spec whose program and working directory were checked and resolved (supervise.ts). */
export interface ResolvedSpawn {
  readonly spec: SpawnSpec;
  /** Absolute path of argv[0]. */
  readonly file: string;
  readonly cwd: string;
}
