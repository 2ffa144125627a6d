// `corral run --host/--via -- CMD`: the command runs on the other machine
// as a job of its agent (under its guardian, with the job's output limits),
// its output comes back as it is written (merged, as a job's is), and corral
// exits with the command's status. A slow reader here slows the command
// there, never anyone's memory. --spill is written here, on the caller's
// side. --timeout ends the remote tree and gives 124, as locally; a lost
// connection is 255 and leaves the job to the remote agent (`jobs --host`).
import { createWriteStream, type WriteStream } from "node:fs";
import process from "node:process";
import type { CorralContext } from "../../shared/context.ts";
import { reachAgent, reportFailure } from "../../shared/agent-reach.ts";
import type { RunJobFlags } from "../../shared/jobs/flags.ts";
import { prepareJob } from "../../shared/jobs/request.ts";
import type { RunFlags } from "../../shared/child/flags.ts";
import { FORWARDED_SIGNALS } from "../../shared/signal-death.ts";
import { ExitStatus } from "../../shared/exit-status.ts";
import { announceRemoteEnv } from "../../shared/remote-env-plan.ts";
import type { AgentClient } from "../../../lib/agent/client/client.ts";
import type { JobInfo } from "../../../lib/agent/protocol/messages.ts";

/** The command function of `run --host` (loaded from cli/commands/run/impl.ts). */
export async function remoteRunAction(this: CorralContext, flags: RunFlags & RunJobFlags, ...argv: string[]): Promise<void> {
  // The timeout is kept here (a job has none of its own): taken out before the job's checks.
  const { timeout: _kept, ...jobFlags } = flags;
  const { request, explain, quiet } = await prepareJob(this, jobFlags, argv, false, true);
  if (flags.explain) for (const line of explain) this.process.stderr.write(`corral: explain: ${line}\n`);
  const { stdout, stderr } = this.process;
  const spill: WriteStream | null = flags.spill === undefined ? null : createWriteStream(flags.spill, { mode: 0o600 });
  let client: AgentClient | undefined;
  let job: JobInfo | null = null;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const handlers = FORWARDED_SIGNALS.map((signal) => [signal, () => client?.sendAttached({ op: "job-signal", signal })] as const);
  try {
    client = await reachAgent(this, flags);
    const c = client;
    await announceRemoteEnv(this, c, flags, request, { explain: flags.explain, quiet });
    const ended = new Promise<JobInfo | null>((resolve) => {
      c.onBytes = (bytes) => {
        spill?.write(bytes);
        if (!stdout.write(bytes)) {
          c.pause();
          stdout.once("drain", () => c.resume());
        }
      };
      c.onEvent = (event) => {
        if (event.event === "job-done") resolve(event.job);
      };
      c.onClose = () => resolve(null);
    });
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const { spill: _here, ...rest } = request;
    await c.call({ ...rest, attach: true });
    if (flags.timeout !== undefined && flags.timeout > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        c.sendAttached({ op: "job-signal", signal: "SIGTERM" });
      }, flags.timeout);
    }
    job = await ended;
    if (job === null) {
      // The transport's own words: the request after a lost link fails with them.
      throw await c.call({ op: "jobs" }).then(() => new Error("the connection ended before the command did"), (error: unknown) => error);
    }
  } catch (error) {
    reportFailure(this, error);
  } finally {
    clearTimeout(timer);
    for (const [signal, handler] of handlers) process.off(signal, handler);
    client?.close();
    if (spill !== null) await new Promise<void>((resolve) => spill.end(() => resolve()));
  }
  if (job === null) return;
  if (timedOut) {
    stderr.write(`corral: timed out after ${flags.timeout} ms; the command's tree on the other machine was terminated\n`);
    this.process.exitCode = ExitStatus.timedOut;
    return;
  }
  this.process.exitCode = job.status ?? ExitStatus.corralFailure;
}
