// What keeping output for waits costs (DESIGN.md 4.8): feeding a session's
// StreamWindow (the last 1 MiB, raw) with no wait running, and with a text
// or regex wait turning it into lines, against the xterm emulator parsing
// the same bytes in the same run (the cost a session pays anyway).
// Usage: npm run bench -- pty-stream-window
import { StreamWindow } from "../../lib/pty/stream-window.ts";
import { StreamWatch } from "../../lib/pty/wait-stream.ts";
import { compilePatterns } from "../../lib/pty/wait-pattern.ts";
import { loadTerminal } from "../../lib/pty/screen-emulator.ts";

const MB = 1024 * 1024;
const TOTAL = 16 * MB;
const out = (line: string) => process.stdout.write(`${line}\n`);

function rate(feed: (chunk: Uint8Array) => void, chunk: Uint8Array): number {
  const start = performance.now();
  for (let n = 0; n < TOTAL; n += chunk.length) feed(chunk);
  return TOTAL / MB / ((performance.now() - start) / 1000);
}

const Terminal = await loadTerminal();
async function xtermRate(chunk: Uint8Array): Promise<number> {
  const term = new Terminal({ cols: 80, rows: 24, scrollback: 0, allowProposedApi: true });
  const start = performance.now();
  for (let n = 0; n < TOTAL; n += chunk.length) await new Promise<void>((resolve) => term.write(chunk, resolve));
  term.dispose();
  return TOTAL / MB / ((performance.now() - start) / 1000);
}

for (const [label, line] of [["coloured log lines", "\x1b[32m2026-12-03 08:00:00\x1b[0m INFO request served in 12 ms\r\n"], ["`yes` lines", "y\n"]] as const) {
  const chunk = new TextEncoder().encode(line.repeat(Math.ceil(65536 / line.length)));
  const xterm = await xtermRate(chunk);
  const plain = rate((c) => new StreamWindow().feed(c), chunk);
  const keep = new StreamWindow();
  const kept = rate((c) => keep.feed(c), chunk);
  const withText = new StreamWindow();
  new StreamWatch(withText, 0, compilePatterns(["never printed"], []), () => {});
  const text = rate((c) => withText.feed(c), chunk);
  const withRegex = new StreamWindow();
  new StreamWatch(withRegex, 0, compilePatterns([], ["^never (printed)$"]), () => {});
  const regex = rate((c) => withRegex.feed(c), chunk);
  out(`${label}: xterm parses ${xterm.toFixed(0)} MB/s (baseline)`);
  out(`  window, no wait:  ${kept.toFixed(0)} MB/s (${(kept / xterm).toFixed(1)}x xterm; a fresh window each chunk ${plain.toFixed(0)} MB/s)`);
  out(`  with a text wait:  ${text.toFixed(1)} MB/s (${(text / xterm).toFixed(2)}x xterm)`);
  out(`  with a regex wait: ${regex.toFixed(1)} MB/s (${(regex / xterm).toFixed(2)}x xterm)`);
}
