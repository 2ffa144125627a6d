// The router, keyed by the table of operations (protocol/operations.ts):
// one handler per operation, each in handlers/<op>.ts (pueue's exhaustive
// `match`); adding an operation to the table without a handler here does
// not compile.
import type { AgentContext } from "./agent-context.ts";
import type { Envelope, Op, ReplyBodies, RequestOf } from "../protocol/operations.ts";
import { handleHello } from "./handlers/hello.ts";
import { handleOpen } from "./handlers/open.ts";
import { handleSend } from "./handlers/send.ts";
import { handleScreen } from "./handlers/screen.ts";
import { handleWait } from "./handlers/wait.ts";
import { handleExec } from "./handlers/exec.ts";
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
import { handleJobStop } from "./handlers/job-stop.ts";
import { handleReap } from "./handlers/reap.ts";
import { handleRecord } from "./handlers/record.ts";
import { handleWatch } from "./handlers/watch.ts";
import { handleCommandLine } from "./handlers/command-line.ts";
import type { CommandOutput, CommandRequests, ConnectionInput } from "./command-line-door.ts";

/** Per-request facts from the connection: who asked, and for how long. */
export interface RequestScope {
  readonly connection: AttachTarget & JobTerminalTarget & { readonly output: CommandOutput; readonly input: ConnectionInput; readonly requests: CommandRequests };
  readonly signal: AbortSignal;
}

/** How one operation is run: its validated request in, its reply body out; throws AgentError. */
type Handler<O extends Op> = (ctx: AgentContext, request: RequestOf<O> & { readonly id: number }, scope: RequestScope) => Promise<ReplyBodies[O]> | ReplyBodies[O];

/** One handler per key of the table (operations.ts): an operation without one does not compile. */
export const ROUTES: { readonly [O in Op]: Handler<O> } = {
  hello: (_ctx, request) => handleHello(request),
  open: (ctx, request) => handleOpen(ctx, request),
  send: (ctx, request, scope) => handleSend(ctx, request, scope.signal),
  screen: (ctx, request) => handleScreen(ctx, request),
  wait: (ctx, request, scope) => handleWait(ctx, request, scope.signal),
  exec: (ctx, request, scope) => handleExec(ctx, request, scope.signal),
  resize: (ctx, request) => handleResize(ctx, request),
  close: (ctx, request) => handleClose(ctx, request),
  list: (ctx) => handleList(ctx),
  attach: (ctx, request, scope) => handleAttach(ctx, request, scope.connection),
  record: (ctx, request) => handleRecord(ctx, request),
  watch: (ctx, request, scope) => handleWatch(ctx, request, scope.connection),
  "agent-status": (ctx) => handleAgentStatus(ctx),
  "agent-stop": (ctx, request) => handleAgentStop(ctx, request),
  "job-start": (ctx, request, scope) => handleJobStart(ctx, request, scope.connection),
  jobs: (ctx) => handleJobs(ctx),
  "job-read": (ctx, request, scope) => handleJobRead(ctx, request, scope.signal, scope.connection),
  fg: (ctx, request, scope) => handleFg(ctx, request, scope.connection),
  bg: (ctx, request) => handleBg(ctx, request),
  "job-stop": (ctx, request) => handleJobStop(ctx, request),
  reap: (ctx, request) => handleReap(ctx, request),
  "command-line": (ctx, request, scope) => handleCommandLine(ctx, request, scope.connection.output, scope.signal, scope.connection.input, scope.connection.requests),
};

/** Runs one validated request; throws AgentError for a failed one. */
export function route(ctx: AgentContext, request: Envelope, scope: RequestScope): Promise<ReplyBodies[Op]> | ReplyBodies[Op] {
  const handler = ROUTES[request.op] as Handler<Op>;
  return handler(ctx, request, scope);
}
