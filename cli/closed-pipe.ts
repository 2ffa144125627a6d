// A reader that went away: `corral pty screen 1 | head -1`, a pager quit
// early, a pipe closed. The JavaScript runtimes ignore SIGPIPE, so the next
// write fails with EPIPE, and a stream error nobody listens for ended the
// JavaScript CLI with a stack trace and status 1. It now ends as the native
// client and every C filter end when SIGPIPE kills them: no message, status
// 141 (128 + SIGPIPE, what the shell reports for them). A command that
// handles a closed pipe itself listens for "error" too (collect stops
// printing and keeps the child's status): then this leaves it to that one.
import process from "node:process";

/** The status a shell reports for a process that SIGPIPE ended. */
export const CLOSED_PIPE_STATUS = 141;

/** Ends the process quietly with status 141 when `stream`'s reader has gone and no one else handles it. */
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  const onError = (error: NodeJS.ErrnoException) => {
    if (stream.listenerCount("error") > 1) return; // another listener handles it
    if (error?.code !== "EPIPE") throw error; // as if no one listened
    process.exit(CLOSED_PIPE_STATUS);
  };
  stream.on("error", onError);
}
