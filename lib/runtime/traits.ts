// What differs between Node, Deno and Bun, named as traits: the rest of corral
// decides by what a runtime can do (pass a child a descriptor past 2, run
// node-pty's sessions), never by which runtime it is, and reads the name only
// to report it (probe, agent status). The runtime is asked in runtime-name.ts.
import process from "node:process";
import { currentRuntime, type RuntimeName } from "./runtime-name.ts";

/** The differences corral decides by. */
export interface RuntimeTraits {
  /** The runtime's name and version, for reports only. */
  readonly name: RuntimeName;
  readonly version: string;
  /**
   * node:child_process hands a child a descriptor past the third (a number or
   * "pipe" at stdio[3] and beyond). Deno's passes none: collect --live's tee
   * then reaches the guardian only as its own fd 1 and 2.
   */
  readonly childDescriptorsPastStdio: boolean;
  /**
   * node-pty's sessions live. Its native addon loads under Bun, but its
   * sessions die at once (its tty.ReadStream on the master fd is not
   * supported there), so under Bun terminals need the guardian.
   */
  readonly nodePtySessions: boolean;
  /**
   * This runtime's executable is a node: the native client may hand a
   * command over to it as `EXECUTABLE dist/corral.cjs ARGS` (native/build/js-runtime).
   */
  readonly isNodeExecutable: boolean;
  /**
   * node:net reads and writes a descriptor another process handed over
   * (`new net.Socket({ fd })` on a pipe or a Unix socket): the agent may
   * take a `connect` client's stdin and stdout (adopted-stdio.ts). Under Bun
   * such a socket opens but never reads, so there the client relays.
   */
  readonly socketsFromDescriptors: boolean;
}

let traits: RuntimeTraits | undefined;

/** This runtime's traits (decided once). */
export function runtimeTraits(): RuntimeTraits {
  return traits ??= traitsOf(currentRuntime());
}

function traitsOf(name: RuntimeName): RuntimeTraits {
  return {
    name,
    version: runtimeVersion(name),
    childDescriptorsPastStdio: name !== "deno",
    nodePtySessions: name !== "bun",
    isNodeExecutable: name === "node",
    socketsFromDescriptors: name !== "bun",
  };
}

function runtimeVersion(name: RuntimeName): string {
  if (name === "deno") return (globalThis as { Deno?: { version: { deno: string } } }).Deno?.version.deno ?? "?";
  if (name === "bun") return process.versions.bun ?? "?";
  return process.versions.node;
}
