// How much RSS a bounded store costs whatever the volume (DESIGN.md 4.3):
// 512 MiB through a store without a spill, and 256 MiB spilled by a producer
// that honours write()'s backpressure; peak RSS growth, the store's own peak,
// and the throughput. test/lib/output/output-memory.test.ts checks the same bounds on
// the store's own counters with smaller volumes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BoundedStore } from "../../lib/output/bounded-store.ts";

const MiB = 1024 * 1024;
const mib = (n: number) => (n / MiB).toFixed(1);

{
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB });
  const chunk = new Uint8Array(64 * 1024);
  let maxRss = 0;
  for (let i = 0; i < 512 * 16; i++) {
    chunk[0] = i & 0xff;
    store.write(chunk);
    if (i % 512 === 0) maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }
  await store.close();
  const s = (performance.now() - started) / 1000;
  process.stdout.write(`512 MiB, no spill: RSS +${mib(maxRss - rssBefore)} MiB at most, store ${mib(store.memoryBytes)} MiB, ${(512 / s).toFixed(0)} MiB/s\n`);
}

{
  const dir = mkdtempSync(path.join(tmpdir(), "corral-output-bench-"));
  try {
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const store = await BoundedStore.open({ headBytes: 64 * 1024, tailBytes: MiB, spillPath: path.join(dir, "spill") });
    let maxMemory = 0;
    let maxRss = 0;
    for (let i = 0; i < 256 * 16; i++) {
      const ok = store.write(new Uint8Array(64 * 1024).fill(i & 0xff));
      maxMemory = Math.max(maxMemory, store.memoryBytes);
      if (!ok) {
        maxRss = Math.max(maxRss, process.memoryUsage().rss);
        await store.drained();
      }
    }
    await store.close();
    const s = (performance.now() - started) / 1000;
    process.stdout.write(`256 MiB spilled: RSS +${mib(maxRss - rssBefore)} MiB at most, store ${mib(maxMemory)} MiB at most, ${(256 / s).toFixed(0)} MiB/s\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
