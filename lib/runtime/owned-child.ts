// Starting a child that owns its end of a socket to us (the guardian) through
// the runtime's own API where that is cheaper or the only way: Bun's spawn
// with a socket at fd 3 (bun/guardian-spawn.ts says why), Deno's Command with
// the child connecting back to a private listener, since Deno passes no
// descriptor past 2 (deno/guardian-spawn.ts). Null: node:child_process then,
// as Node always does (lib/supervise/guardian/launch.ts).
import { currentRuntime } from "./runtime-name.ts";
import { spawnGuardianUnderBun } from "./bun/guardian-spawn.ts";
import { denoStdio, spawnGuardianUnderDeno } from "./deno/guardian-spawn.ts";
import type { PlatformProcess, PlatformSocket } from "./platform.ts";

/** How the child reaches its owner: the socket at its fd 3, or a connection it makes to `ownerConnect`. */
export type OwnerLink = { readonly ownerFd: 3 } | { readonly ownerConnect: string };

/** A child started through the runtime's own API: its process, and its connection once open. */
export interface OwnedChild {
  readonly process: PlatformProcess;
  /** Rejects when the child could not be started or exited before it connected. */
  readonly connection: Promise<PlatformSocket>;
}

/**
 * Starts `binary` with `argvFor(link)` and the stdio node:child_process would
 * be given (`stdio[3]` is "pipe": the socket pair the child owns through);
 * `diagnostics` hears its stderr when that is "pipe". Null when this runtime
 * starts it through node:child_process (Node; a Bun without "socket-fd"; a
 * Deno asked for a descriptor it cannot pass).
 */
export function spawnOwnedChild(
  binary: string,
  argvFor: (link: OwnerLink) => string[],
  env: Record<string, string | undefined>,
  stdio: readonly ("inherit" | "ignore" | "pipe" | number)[],
  diagnostics: (text: string) => void,
): OwnedChild | null {
  switch (currentRuntime()) {
    case "bun":
      return spawnGuardianUnderBun(binary, argvFor({ ownerFd: 3 }), env, stdio, diagnostics);
    case "deno": {
      const io = denoStdio(stdio);
      return io === null ? null : spawnGuardianUnderDeno(binary, (ownerConnect) => argvFor({ ownerConnect }), env, io, diagnostics);
    }
    case "node":
      return null;
  }
}
