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
// The ticker keeps nothing alive, so a long one-shot timer holds the process
// until the ticker has ticked three times and stopped itself; the report
// comes 30 ms after that, so a tick after the stop would be counted.
let ticks = 0;
let oneShotsDone = false;
let tickerDone = false;
const report = () => {
  if (oneShotsDone && tickerDone) console.log(JSON.stringify({ fired, ticks, failures }));
};
const hold = startTimer(100_000, () => failures.push("the ticker never ticked three times"));
const stopTicker = startBackgroundTicker(10, () => {
  ticks += 1;
  if (ticks !== 3) return;
  stopTicker();
  hold();
  startTimer(30, () => {
    tickerDone = true;
    report();
  });
});
// Never stopped: the process must still exit once the last one-shot timer fired.
startBackgroundTicker(5, () => {});
startTimer(120, () => {
  fired.push("120");
  oneShotsDone = true;
  report();
});
