// `exec`: one command line run in a session's hooked shell (`pty exec`,
// connect's {"op":"exec"}). The session types it and reads its output and
// status from the shell's marks (lib/pty/command-run.ts); the reply is the
// same through every door.
import type { AgentContext } from "../agent-context.ts";
import { AgentError, type ExecRequest, type ReplyBodies } from "../../protocol/messages.ts";
import { signalName } from "../../../runtime/signals.ts";
import { DEFAULT_HEAD_BYTES, DEFAULT_INTERRUPT_GRACE_MS, DEFAULT_MAX_BYTES } from "../../../core/defaults.ts";


/** Runs the command; throws AgentError (no_shell_integration, shell_busy, command_not_run, timeout, session_exited). */
export async function handleExec(ctx: AgentContext, request: ExecRequest, signal?: AbortSignal): Promise<ReplyBodies["exec"]> {
  const entry = ctx.registry.get(request.session);
  if (!entry.session.alive()) throw new AgentError("session_exited", `session ${entry.id} has exited; its screen can still be read`);
  if (entry.session.exec === undefined) throw new AgentError("no_shell_integration", `session ${entry.id} cannot run commands (pty exec)`);
  const result = await entry.session.exec(entry.id, request.command, {
    timeoutMs: request.timeoutMs ?? ctx.defaults.waitTimeoutMs,
    interrupt: request.interrupt === true,
    graceMs: request.graceMs ?? DEFAULT_INTERRUPT_GRACE_MS,
    headBytes: request.headBytes ?? DEFAULT_HEAD_BYTES,
    maxBytes: request.maxBytes ?? DEFAULT_MAX_BYTES,
    headLines: request.headLines,
    tailLines: request.tailLines,
    spill: request.spill,
    ...(signal !== undefined ? { signal } : {}),
  });
  ctx.touch();
  return {
    output: result.output.text,
    status: result.status,
    signal: signalOf(result.status),
    cwd: result.cwd,
    durationMs: result.durationMs,
    from: result.from,
    to: result.to,
    truncated: result.output.truncated,
    bytes: result.output.bytes,
    lines: result.output.lines,
    spill: result.output.spill,
  };
}

// The shell says 128+N for a command killed by signal N: its reading, given by name.
function signalOf(status: number): string | null {
  if (status <= 128 || status > 128 + 64) return null;
  const name = signalName(status - 128);
  return name === `SIG${status - 128}` ? null : name;
}
