// Run under Node, Deno and Bun by test/lib/runtime/timer.test.ts: the
// supervision path's timers (lib/runtime/timer.ts) fire once, in order of
// their delays, not before them, not when stopped, and keep the process
// alive while pending; the background ticker fires until stopped and keeps
// nothing alive. Prints one JSON object: { fired: [...], ticks, failures: [...] }.
import { startBackgroundTicker, startTimer } from "../../lib/runtime/timer.ts";

const failures: string[] = [];
const fired: string[] = [];
const started = performance.now();

const stopped = startTimer(20, () => fired.push("stopped"));
stopped();
startTimer(60, () => {
  fired.push("60");
  if (performance.now() - started < 59) failures.push(`the 60 ms timer fired after ${performance.now() - started} ms`);
});
const stopAfter = startTimer(30, () => {
  fired.push("30");
  stopAfter(); // stopping a timer that fired is harmless
});
// Out of range, as setTimeout: fires at once (1 ms), not never.
startTimer(2 ** 31, () => fired.push("out of range"));
let ticks = 0;
const stopTicker = startBackgroundTicker(10, () => {
  ticks += 1;
  if (ticks === 3) stopTicker();
});
// Never stopped: the process must still exit once the last one-shot timer fired.
startBackgroundTicker(5, () => {});
// Nothing else keeps this process alive: the pending timers must, until the last one fires.
startTimer(120, () => {
  fired.push("120");
  console.log(JSON.stringify({ fired, ticks, failures }));
});
