// `pty wait --ready`: the terminal's foreground process is blocked reading
// the terminal (lib/pty/foreground.ts), which has no event, so it is looked
// at. It must hold twice in a row 50 ms apart with no output in between (a
// program between two bursts of output may poll for a moment), and with
// --after only once output after it came (input just written may not have
// reached the program yet; its echo says it has).
// A hooked shell says more: the end mark of its prompt, with nothing typed
// after it, is the shell's word that it waits for a line. Then one look is
// enough, it is taken as the prompt is parsed, and again every few
// milliseconds until the shell has blocked in its read (it does so moments
// after drawing the prompt): `send --wait-ready` in a hooked bash ends within
// milliseconds of the prompt instead of at the next 50 ms poll.
import type { Screen } from "./screen.ts";
import type { StreamWindow } from "./stream-window.ts";

/** What watching needs from the session. */
export interface ReadyTarget {
  readonly screen: Screen;
  readonly stream: StreamWindow;
  /** The foreground process is blocked reading the terminal with nothing unread. */
  isReady(): Promise<boolean>;
  /** A hooked shell drew its prompt and nothing was typed after it (undefined: no hooked shell). */
  promptDrawn?(): boolean;
}

/** How often readiness is looked at otherwise. */
const READY_POLL_MS = 50;
/** How often, after a hooked shell drew its prompt, until it blocks in its read. */
const PROMPT_POLL_MS = 2;
/** Looks that soon after one prompt (then the 50 ms polls go on). */
const PROMPT_POLLS = 50;

/**
 * Calls `fired` once the target is ready (output after `after` first, when
 * given); `done` says the wait ended otherwise. Returns the function that stops watching.
 */
export function watchReady(target: ReadyTarget, after: number | undefined, done: () => boolean, fired: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  /** A look is under way; another was asked for meanwhile. */
  let looking = false;
  let lookAgain = false;
  /** The output position of the last look that found the target ready (-1: it did not). */
  let readyAt = -1;
  let promptPolls = 0;
  const over = () => stopped || done();
  const look = (): void => {
    if (over()) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = true;
    clearTimeout(timer);
    void target.screen.settled().then(async () => {
      if (over()) return;
      const position = target.stream.position;
      const ready = (after === undefined || position > after) && await target.isReady();
      if (over()) return;
      const prompt = target.promptDrawn?.() === true;
      if (ready && (readyAt === position || prompt) && target.stream.position === position) {
        fired();
        return;
      }
      readyAt = ready ? position : -1;
      const soon = prompt && promptPolls < PROMPT_POLLS;
      if (soon) promptPolls++;
      timer = setTimeout(look, soon ? PROMPT_POLL_MS : READY_POLL_MS);
    }).finally(() => {
      looking = false;
      if (lookAgain) {
        lookAgain = false;
        look();
      }
    });
  };
  // A prompt drawn is looked at as it is parsed, not at the next poll.
  const unsubscribe = target.promptDrawn === undefined ? undefined : target.screen.onParsed(() => {
    if (target.promptDrawn?.() !== true) return;
    promptPolls = 0;
    look();
  });
  look();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe?.();
  };
}
