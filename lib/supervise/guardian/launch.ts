// Starting a guardian (or reconnecting to one a restarted agent left
// running) and connecting its socket: the launch side of the client, kept
// apart from the Guardian object that speaks the protocol once connected.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import process from "node:process";
import { locateGuardian, missingGuardian } from "./binary.ts";
import { Guardian, GuardianError, type GuardianProcess, type GuardianSocket, type SpawnGuardianOptions } from "./client.ts";
import { GUARDIAN_TOKEN_ENV, guardianArgv, type GuardianLaunch } from "./protocol.ts";
import { randomHex } from "../../runtime/random-hex.ts";
import { spawnOwnedChild } from "../../runtime/owned-child.ts";
import { runtimeTraits, type RuntimeTraits } from "../../runtime/traits.ts";
import { describeEnd } from "../../core/exit-words.ts";

/**
 * Starts a guardian for `launch` and connects to it. Returns at once; add
 * listeners, then await `ready`/`started`/`exited`. The child starts only
 * after our token was accepted, so no event is missed. With
 * `options.stateDir` the guardian listens on a socket there (a restarted
 * agent can reconnect); without, it speaks over its descriptor 3, the
 * socket pair the runtime makes for a "pipe" there, already connected (under
 * Deno, over a connection it makes to our private listener instead).
 */
export function spawnGuardian(launch: GuardianLaunch, options: SpawnGuardianOptions): Guardian {
  const binary = options.binary ?? guardianPathOrThrow();
  const socketPath = options.stateDir === undefined ? null : path.join(options.stateDir, `guardian-${process.pid}-${randomHex(6)}.sock`);
  // A socket anyone could connect to needs a token; an inherited socket pair does not (native/owner.c).
  const token = socketPath === null ? "" : randomHex(24);
  const descriptors = guardianDescriptors(launch, runtimeTraits());
  const connection = socketPath === null ? { ownerFd: 3 } : { socket: socketPath, readyFd: 3 };
  const env = { ...(options.env ?? process.env), ...launch.env };
  if (socketPath !== null) env[GUARDIAN_TOKEN_ENV] = token;
  else delete env[GUARDIAN_TOKEN_ENV]; // an owner's own token is not handed down
  let diagnostics = "";
  const heard = (text: string) => (diagnostics = (diagnostics + text).slice(-2000));
  const exitedEarly = (code: number | null, signal: string | null) => {
    const why = diagnostics.trim().split("\n").pop() ?? "";
    return new GuardianError("guardian-exited", `the guardian ${describeEnd({ code, signal })} before it was ready${why ? `: ${why}` : ""}`);
  };
  const cannotStart = (guardian: Guardian) => (e: Error) => guardian.fail(new GuardianError("spawn-guardian", `cannot start ${binary}: ${e.message}`));
  /** A guardian started through the runtime's own API (no socket, no token): its process, then its connection. */
  const owned = (started: { process: GuardianProcess; connection: Promise<GuardianSocket> }) => {
    const guardian = new Guardian(null, "", started.process);
    started.process.on("error", cannotStart(guardian));
    guardian.explainEarlyClose = (exit) => exitedEarly(exit.code, exit.signal);
    started.connection.then((socket) => guardian.attach(socket), () => {
      // A guardian that could not be started says so through "error"; one gone before we connected, through its exit.
      void guardian.processExit?.then((exit) => guardian.fail(exitedEarly(exit.code, exit.signal)));
    });
    return guardian;
  };
  // Bun's own spawn and sockets, where this Bun has them; Deno's, which cannot pass a descriptor past 2,
  // so the guardian connects to us instead (lib/runtime/owned-child.ts). Null: node:child_process.
  const underRuntime = socketPath === null
    ? spawnOwnedChild(binary, (link) => guardianArgv(launch, link, descriptors.teeFds), env, descriptors.stdio, heard)
    : null;
  if (underRuntime !== null) return owned(underRuntime);
  const argv = guardianArgv(launch, connection, descriptors.teeFds);
  const child = spawn(binary, argv, { env, stdio: descriptors.stdio });
  const guardian = new Guardian(socketPath, token, child);
  child.stderr?.on("data", (c: Uint8Array) => heard(new TextDecoder().decode(c)));
  child.on("error", cannotStart(guardian));
  // Absent when spawn itself failed (EMFILE): the child's "error" event says why.
  const fd3 = (child.stdio?.[3] ?? null) as net.Socket | null;
  if (socketPath === null) {
    guardian.explainEarlyClose = (exit) => exitedEarly(exit.code, exit.signal);
    if (fd3 !== null) guardian.attach(fd3);
    return guardian;
  }
  let line = "";
  let connecting = false;
  fd3?.on("data", (c: Uint8Array) => {
    line += new TextDecoder().decode(c);
    if (!connecting && line.includes("\n")) {
      connecting = true;
      fd3.destroy();
      connectSocket(guardian, socketPath);
    }
  });
  fd3?.on("error", () => {});
  child.on("exit", (code, signal) => {
    if (!connecting) guardian.fail(exitedEarly(code, signal));
  });
  return guardian;
}

/**
 * Deno's child_process passes no descriptor past the third, so the guardian
 * would never get collect --live's tee targets at 4 and 5. When they are our
 * own stdout and stderr (fd 1 and 2, as for the CLI) and the guardian's own
 * 1 and 2 serve nothing else (the streams are captured, not inherited), they
 * go there instead, inherited: the guardian tees, and the stream never passes
 * through JavaScript (a 1 GiB collect --live peaked at 153 MiB on Deno when
 * it did). The guardian's diagnostics then go straight to our stderr rather
 * than into the error message of a guardian that failed to start.
 */
function teeAtOwnStdio(launch: GuardianLaunch, runtime: RuntimeTraits): boolean {
  if (runtime.childDescriptorsPastStdio) return false;
  const { teeStdout, teeStderr } = launch;
  if (teeStdout === undefined && teeStderr === undefined) return false;
  const outOk = teeStdout === undefined || (teeStdout === 1 && launch.stdout !== "inherit");
  const errOk = teeStderr === undefined || (teeStderr === 2 && launch.stderr !== "inherit");
  return outOk && errOk;
}

/** The guardian's stdio for `launch` under `runtime`, and where its tee descriptors are (undefined: 4 and 5). */
export function guardianDescriptors(
  launch: GuardianLaunch,
  runtime: RuntimeTraits,
): { stdio: ("inherit" | "ignore" | "pipe" | number)[]; teeFds: { stdout: number; stderr: number } | undefined } {
  const io = (choice: string | undefined) => (choice === "inherit" ? "inherit" : "ignore");
  if (teeAtOwnStdio(launch, runtime)) {
    const out = launch.teeStdout === 1 ? "inherit" : io(launch.stdout);
    const err = launch.teeStderr === 2 || launch.stderr === "inherit" ? "inherit" : "pipe";
    return { stdio: [io(launch.stdin), out, err, "pipe"], teeFds: { stdout: 1, stderr: 2 } };
  }
  const err = launch.stderr === "inherit" ? "inherit" : "pipe";
  return { stdio: [io(launch.stdin), io(launch.stdout), err, "pipe", ...teeStdio(launch)], teeFds: undefined };
}

/** Descriptors 4 and 5 of the guardian: collect --live's tee targets (TEE_STDOUT_FD, TEE_STDERR_FD), when asked. */
function teeStdio(launch: GuardianLaunch): ("ignore" | number)[] {
  if (launch.teeStdout === undefined && launch.teeStderr === undefined) return [];
  return [launch.teeStdout ?? "ignore", launch.teeStderr ?? "ignore"];
}

/** Connects to a running guardian (e.g. after the agent restarted) with its socket path and token. */
export function connectGuardian(socketPath: string, token: string): Guardian {
  const guardian = new Guardian(socketPath, token);
  connectSocket(guardian, socketPath);
  return guardian;
}

function connectSocket(guardian: Guardian, socketPath: string): void {
  const socket = net.createConnection({ path: socketPath });
  socket.once("connect", () => guardian.attach(socket));
  socket.once("error", (e) => {
    if (!socket.readyState || socket.connecting) guardian.fail(new GuardianError("connect", `cannot connect to ${socketPath}: ${e.message}`));
  });
}

function guardianPathOrThrow(): string {
  const found = locateGuardian();
  if (!found.built) throw new GuardianError("not-built", missingGuardian(found));
  return found.path;
}
