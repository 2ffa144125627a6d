// A program for test/cli/lazy-stdio.test.ts: listens for "error" on
// cli/lazy-stdio.ts's stdout before any write (as collect's writeAll does
// while writes still go straight to the descriptor), then writes to a pipe
// whose reader is gone. The failed write hands over to the real stream, and
// the listener must hear its EPIPE there; a listener taken off before must
// not. Prints what was heard on stderr as JSON.
import { lazyStdio } from "../../cli/lazy-stdio.ts";

const out = lazyStdio(1);
const heard: string[] = [];
const removed = () => heard.push("the removed listener");
out.on("error", removed);
out.on("error", (error: NodeJS.ErrnoException) => heard.push(error.code ?? error.message));
out.off("error", removed);
out.write("x".repeat(4096));
const deadline = Date.now() + 20_000;
while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
process.stderr.write(`${JSON.stringify({ heard })}\n`);
