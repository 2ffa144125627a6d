// The one exhaustive switch over requests (pueue's `match`): adding an op
// to protocol.ts without a case here does not compile.
import type { AgentContext } from "./agent-context.ts";
import type { Envelope, Op, ReplyBodies } from "./protocol.ts";
import { handleHello } from "./handlers/hello.ts";
import { handleOpen } from "./handlers/open.ts";
import { handleSend } from "./handlers/send.ts";
import { handleScreen } from "./handlers/screen.ts";
import { handleWait } from "./handlers/wait.ts";
import { handleResize } from "./handlers/resize.ts";
import { handleClose } from "./handlers/close.ts";
import { handleList } from "./handlers/list.ts";
import { handleAgentStatus } from "./handlers/agent-status.ts";
import { handleAgentStop } from "./handlers/agent-stop.ts";
import { handleAttach, type AttachTarget } from "./handlers/attach.ts";
import { handleJobStart, type JobTerminalTarget } from "./handlers/job-start.ts";
import { handleJobs } from "./handlers/jobs.ts";
import { handleJobRead } from "./handlers/job-read.ts";
import { handleFg } from "./handlers/fg.ts";
import { handleBg } from "./handlers/bg.ts";
import { handleReap } from "./handlers/reap.ts";
import { handleRecord } from "./handlers/record.ts";
import { handleWatch } from "./handlers/watch.ts";

/** Per-request facts from the connection: who asked, and for how long. */
export interface RequestScope {
  readonly connection: AttachTarget & JobTerminalTarget;
  readonly signal: AbortSignal;
}

/** Runs one validated request; throws AgentError for a failed one. */
export function route(ctx: AgentContext, request: Envelope, scope: RequestScope): Promise<ReplyBodies[Op]> | ReplyBodies[Op] {
  switch (request.op) {
    case "hello":
      return handleHello(request);
    case "open":
      return handleOpen(ctx, request);
    case "send":
      return handleSend(ctx, request, scope.signal);
    case "screen":
      return handleScreen(ctx, request);
    case "wait":
      return handleWait(ctx, request, scope.signal);
    case "resize":
      return handleResize(ctx, request);
    case "close":
      return handleClose(ctx, request);
    case "list":
      return handleList(ctx);
    case "agent-status":
      return handleAgentStatus(ctx);
    case "agent-stop":
      return handleAgentStop(ctx, request);
    case "attach":
      return handleAttach(ctx, request, scope.connection);
    case "record":
      return handleRecord(ctx, request);
    case "watch":
      return handleWatch(ctx, request, scope.connection);
    case "job-start":
      return handleJobStart(ctx, request, scope.connection);
    case "jobs":
      return handleJobs(ctx);
    case "job-read":
      return handleJobRead(ctx, request, scope.signal, scope.connection);
    case "fg":
      return handleFg(ctx, request, scope.connection);
    case "bg":
      return handleBg(ctx, request);
    case "reap":
      return handleReap(ctx, request);
    default:
      return unreachable(request);
  }
}

function unreachable(request: never): never {
  throw new Error(`no handler for ${JSON.stringify(request)}`);
}
