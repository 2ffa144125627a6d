// How this process's memory moves while a `yes` flood runs into a session
// nobody reads, on each backend: RSS after the first 1.5 s and over the next
// 3 s, against the megabytes that flowed meanwhile (the figures the README's
// bounded-memory claim rests on), with growth per megabyte flowed, which
// compares across loads better than the raw figures. test/lib/pty/pty-programs.test.ts
// reads the screen after such a flood; the bound is measured here only.
import { availablePtyBackends } from "../../lib/supervise/start.ts";
import { PtySession } from "../../lib/pty/session.ts";

const mb = (n: number) => (n / 1e6).toFixed(1);

for (const backend of await availablePtyBackends()) {
  const s = await PtySession.open({ argv: ["sh", "-c", "yes corral-flood-line"], env: { ...process.env } as Record<string, string>, backend });
  try {
    if ((await s.wait({ text: "corral-flood-line", timeoutMs: 30_000 })).fired !== "text") throw new Error("the flood never showed its first line");
    const sample = async (ms: number) => {
      let peak = 0;
      const until = Date.now() + ms;
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      return peak;
    };
    const start = process.memoryUsage().rss;
    const warm = await sample(1500);
    const bytesWarm = s.info().outputBytes;
    const later = await sample(3000);
    const flooded = s.info().outputBytes - bytesWarm;
    process.stdout.write(
      `${backend}: rss +${mb(warm - start)} MB in the first 1.5 s, +${mb(later - warm)} MB over the next 3 s ` +
        `while ${mb(flooded)} MB flowed (growth/flow ${(Math.max(0, later - warm) / Math.max(1, flooded)).toFixed(3)})\n`,
    );
  } finally {
    await s.close({ force: true });
    s.dispose();
  }
}
