// When the suite's next test file starts (run-files.ts). With a fixed
// number at once (3 ran the Node stage in about 380 s on a 2-core machine),
// the CPU idles whenever the files running all wait: many spend most of
// their time so (a bound the product documents and a test must outwait, a
// sleep-paced program, a program under strace), while the suite as a whole
// is bound by CPU. `auto`: never fewer than cores + 2 files at once (what a
// machine others load still carries: at cores + 1 a 2-core machine still
// idled a third of the Node stage), and one more whenever the machine had
// at least IDLE_TO_START cores idle over the last seconds, up to
// FILES_PER_CORE per core; after a start, the next extra one waits until
// the new file's own start-up (a Node process loading TypeScript) shows.
// Files start in the order given (the longest first: run-suite.ts).
import { cores, IdleCores } from "./cpu-idle.ts";

export type Concurrency = number | "auto";

/** How often the machine's idle CPU is read. */
const TICK_MS = 500;
/** Ticks averaged: a file's bursts (an agent starting) must not count as the machine's load for long, nor its pauses as idle. */
const TICKS_AVERAGED = 4;
/** Idle cores, averaged, that let one more file start (half a core: the suite is bound by CPU, so the machine should rarely idle). */
const IDLE_TO_START = 0.5;
/** After a file starts, no extra one for this long: its start-up shows in the CPU first. */
const START_SPACING_MS = 1500;
/** At most this many files per core at once (memory: each may hold an agent, tmux servers, a browser). */
const FILES_PER_CORE = 4;

/** What a test of the scheduler replaces: the machine and the clock's pace. */
export interface SchedulerOptions {
  /** Idle cores since the last call (IdleCores.read). */
  readonly idleCores?: () => number | undefined;
  readonly cores?: number;
  readonly tickMs?: number;
  readonly startSpacingMs?: number;
}

export class FileScheduler {
  readonly floor: number;
  readonly ceiling: number;
  /** The most files that ran at once, and the time-weighted mean (after run()). */
  peak = 0;
  mean = 0;
  readonly #options: SchedulerOptions;

  constructor(concurrency: Concurrency, options: SchedulerOptions = {}) {
    const machine = options.cores ?? cores();
    this.floor = concurrency === "auto" ? machine + 2 : concurrency;
    this.ceiling = concurrency === "auto" ? Math.max(this.floor, FILES_PER_CORE * machine) : concurrency;
    this.#options = options;
  }

  /** Runs `each` on every file (never rejecting), as many at once as the machine allows; resolves when all ended. */
  async run(files: readonly string[], each: (file: string) => Promise<void>): Promise<void> {
    const queue = [...files];
    let running = 0;
    let lastStart = -Infinity;
    const idle = this.#options.idleCores ?? ((gauge) => () => gauge.read())(new IdleCores());
    const spacing = this.#options.startSpacingMs ?? START_SPACING_MS;
    const recent: number[] = [];
    let wake: () => void = () => {};
    const began = performance.now();
    let fileTime = 0;
    let countedAt = began;
    const count = () => {
      const now = performance.now();
      fileTime += running * (now - countedAt);
      countedAt = now;
    };
    const start = () => {
      const file = queue.shift()!;
      count();
      running += 1;
      this.peak = Math.max(this.peak, running);
      lastStart = performance.now();
      void each(file).finally(() => {
        count();
        running -= 1;
        wake();
      });
    };
    const tick = setInterval(() => {
      const now = idle();
      if (now !== undefined) recent.push(now);
      if (recent.length > TICKS_AVERAGED) recent.shift();
      wake();
    }, this.#options.tickMs ?? TICK_MS);
    try {
      while (queue.length > 0 || running > 0) {
        while (queue.length > 0 && running < this.floor) start();
        if (queue.length > 0 && running < this.ceiling && performance.now() - lastStart >= spacing && recent.length === TICKS_AVERAGED) {
          const average = recent.reduce((a, b) => a + b, 0) / recent.length;
          if (average >= IDLE_TO_START) {
            start();
            // What was idle before this start says nothing about after it.
            recent.length = 0;
          }
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      clearInterval(tick);
      count();
      this.mean = fileTime / Math.max(1, performance.now() - began);
    }
  }
}
