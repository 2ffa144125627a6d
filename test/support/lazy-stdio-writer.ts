// A program for test/cli/lazy-stdio.test.ts: writes a known byte pattern
// through cli/lazy-stdio.ts's stdout the way commands write (waiting for
// 'drain' when write() says so), then a last line with a callback, under
// whichever runtime runs it.
import { lazyStdio } from "../../cli/lazy-stdio.ts";

const CHUNKS = 64;
const out = lazyStdio(1);
for (let i = 0; i < CHUNKS; i++) {
  const chunk = `${String(i).padStart(8, "0")}${"x".repeat(64 * 1024 - 9)}\n`;
  if (!out.write(i % 2 === 0 ? chunk : new TextEncoder().encode(chunk))) await new Promise((resolve) => out.once("drain", resolve));
}
await new Promise<void>((resolve, reject) => out.write("end\n", (error) => (error ? reject(error) : resolve())));
