// The scroll region (DECSTBM, `CSI top ; bottom r`) is the terminal's, not
// one screen's: in xterm and tmux a region set on the normal screen holds on
// the alternate screen after `CSI ? 1049 h` (and 1047, 47), and one a program
// set on the alternate screen still holds after it switches back. xterm.js 6
// keeps a region per buffer instead, so after a switch it scrolled the whole
// screen where xterm and tmux scroll only the region (a program that leaves
// its region set, then the shell's output below it). corral carries the
// region from the screen left to the screen shown at every switch. xterm.js
// clears the alternate buffer, region and all, before it shows the normal
// one, so the region is taken as the switching sequence arrives, before
// xterm's own handler runs. A reset (RIS) makes both buffers anew: the
// default region is carried.
import type { Terminal } from "@xterm/headless";

/** The parts of xterm's private buffers this needs (xterm 6). */
interface Margins {
  scrollTop: number;
  scrollBottom: number;
}

interface PrivateCore {
  _bufferService?: {
    buffer?: Margins;
    buffers?: { onBufferActivate?: (listener: (e: { activeBuffer: Margins; inactiveBuffer: Margins }) => void) => unknown };
  };
}

/** Makes the scroll region hold across the switch between the normal and the alternate screen. */
export function keepScrollRegionAcrossScreens(term: Terminal): void {
  const service = (term as unknown as { _core?: PrivateCore })._core?._bufferService;
  const buffers = service?.buffers;
  if (typeof buffers?.onBufferActivate !== "function") return; // another xterm: left as it is
  // The private modes that switch between the normal and the alternate screen. (Here, not at
  // the top: pty view's page gets this function as its source text, without the file around it.)
  const switches = [47, 1047, 1049];
  let leaving: Margins | undefined;
  // Only for a sequence that will switch: a stale region would be carried by a later reset.
  const takeRegion = (from: "normal" | "alternate") => (params: (number | number[])[]) => {
    const shown = service?.buffer;
    if (shown !== undefined && term.buffer.active.type === from && params.some((p) => typeof p === "number" && switches.includes(p))) {
      leaving = { scrollTop: shown.scrollTop, scrollBottom: shown.scrollBottom };
    }
    return false; // xterm's own handler switches
  };
  term.parser.registerCsiHandler({ prefix: "?", final: "h" }, takeRegion("normal"));
  term.parser.registerCsiHandler({ prefix: "?", final: "l" }, takeRegion("alternate"));
  buffers.onBufferActivate(({ activeBuffer, inactiveBuffer }) => {
    const region = leaving ?? inactiveBuffer;
    leaving = undefined;
    activeBuffer.scrollTop = region.scrollTop;
    activeBuffer.scrollBottom = region.scrollBottom;
  });
}
