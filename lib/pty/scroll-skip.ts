// Skipping text that is certain to scroll out of the terminal before a batch
// of output ends, so a flood (`cat` of a big file, `yes`) costs a byte scan
// instead of a full emulation of every line. The screen after the batch is
// exactly what full parsing would give: the dropped part is plain text in
// the parser's ground state (plus SGR colour changes, which are kept), it
// ends with CR LF, holds at least `rows` line feeds (so the cursor is on the
// bottom row after it either way) and is followed, in the same plain run, by
// at least rows + scrollback line feeds (so every line it wrote has left the
// buffer, scrollback included). It is replaced by its SGR sequences and
// `rows` CR LFs. Only with a full-screen scroll region: any other escape
// sequence or SO/SI ends a run, and a sequence that could change the region
// or the modes ends skipping for the rest of the batch.
// test/lib/pty/pty-scroll-skip.test.ts compares skipped and full parsing byte for byte.

/** What the emulator's state must be for skipping to be exact. */
export interface SkipContext {
  /** xterm's VT500 transition table: index state << 8 | min(code, 160), value action << 4 | next. */
  readonly table: Uint8Array;
  /** The parser state before the batch (0 = ground). */
  readonly state: number;
  /** The scroll region is the whole screen and reverse wraparound is off (BS never goes up). */
  readonly fullScrollRegion: boolean;
  readonly rows: number;
  /** Lines that must survive: rows plus scrollback. */
  readonly keepLines: number;
  /** Last byte of the previous batch (-1 when none): a C1 control may straddle the boundary. */
  readonly previousByte: number;
}

const ACTION_PRINT = 2;
const ACTION_EXECUTE = 3;
const ACTION_IGNORE = 0;
const ACTION_CLEAR = 11;
const ACTION_PARAM = 8;
const ACTION_COLLECT = 9;
const ACTION_CSI_DISPATCH = 7;
const ACTION_ESC_DISPATCH = 10;
// CSI finals that may change the scroll region or modes: DECSTBM r, SM/RM and DECSET h/l, DECSTR p, save s.
const REGION_FINALS = new Set([0x72, 0x68, 0x6c, 0x70, 0x73]);
const CR = 13;
const LF = 10;
const ESC = 27;
// Executes that only move the cursor or ring: BEL BS HT LF VT FF CR.
const HARMLESS_C0 = new Set([7, 8, 9, 10, 11, 12, 13]);

let lfScratch: Int32Array = new Int32Array(1024);
let sgrScratch: Int32Array = new Int32Array(256);

function grow(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

interface Cut {
  readonly start: number;
  readonly end: number;
  /** SGR sequences inside [start, end) to keep, as [from, to) pairs. */
  readonly sgr: number[];
}

/** The batch with scrolled-out text removed; the same array when nothing can be skipped. */
export function skipScrolledOut(batch: Uint8Array, ctx: SkipContext): Uint8Array {
  if (!ctx.fullScrollRegion || ctx.rows < 1 || batch.length < (ctx.rows + ctx.keepLines) * 2) return batch;
  // A C1 control split across batches (C2 | 80..9F) is not worth modelling.
  if (ctx.previousByte === 0xc2 && (batch[0] ?? 0) >= 0x80 && (batch[0] ?? 0) <= 0x9f) return batch;
  const table = ctx.table;
  const cuts: Cut[] = [];
  let state = ctx.state;
  let segStart = state === 0 ? 0 : -1; // -1: not in a safe run
  let lfCount = 0;
  let sgrCount = 0;
  let seqStart = -1;

  const closeSegment = (end: number) => {
    if (segStart >= 0 && lfCount >= ctx.rows + ctx.keepLines) {
      const cut = chooseCut(batch, lfScratch, lfCount, ctx.rows, ctx.keepLines, end);
      if (cut !== undefined) {
        const sgr: number[] = [];
        for (let i = 0; i < sgrCount; i += 2) {
          if ((sgrScratch[i + 1] ?? 0) <= cut) sgr.push(sgrScratch[i] ?? 0, sgrScratch[i + 1] ?? 0);
        }
        cuts.push({ start: segStart, end: cut, sgr });
      }
    }
    segStart = -1;
    lfCount = 0;
    sgrCount = 0;
  };

  for (let i = 0; i < batch.length; i++) {
    let code = batch[i] as number;
    if (code >= 0x80) {
      if (code === 0xc2 && i + 1 < batch.length && (batch[i + 1] as number) >= 0x80 && (batch[i + 1] as number) <= 0x9f) {
        // A C1 control: nothing here is plain text any more.
        closeSegment(i);
        state = table[(state << 8) | (batch[i + 1] as number)] as number & 15;
        i++;
        seqStart = -1;
        continue;
      }
      // Invalid UTF-8 inside a sequence is where a byte scan and xterm's
      // decoder could disagree: stop skipping for the rest of this batch.
      if (state !== 0 && state !== 8 && state !== 13) {
        closeSegment(seqStart >= 0 ? seqStart : i);
        return cuts.length === 0 ? batch : assemble(batch, cuts, ctx.rows);
      }
      code = 160;
    }
    const transition = table[(state << 8) | code] as number;
    const action = transition >> 4;
    let next = transition & 15;
    if ((action === 6 || action === 14) && code === ESC) next = 1; // OSC end / DCS unhook by ESC starts an escape
    if ((action === ACTION_CSI_DISPATCH && REGION_FINALS.has(code)) || (action === ACTION_ESC_DISPATCH && code === 0x63)) {
      // Scroll region, modes (alternate screen, reverse wrap), resets: the
      // rest of this batch is parsed in full; the next batch starts from
      // xterm's real state again.
      closeSegment(seqStart >= 0 ? seqStart : i);
      return cuts.length === 0 ? batch : assemble(batch, cuts, ctx.rows);
    }
    if (state === 0) {
      if (action === ACTION_PRINT || action === ACTION_IGNORE) {
        // printable or DEL: part of the run
      } else if (action === ACTION_EXECUTE && HARMLESS_C0.has(code)) {
        if (code === LF && segStart >= 0) {
          lfScratch = grow(lfScratch, lfCount + 1);
          lfScratch[lfCount++] = i;
        }
      } else if (code === ESC && next === 1) {
        seqStart = i;
      } else {
        closeSegment(i);
      }
    } else if (seqStart >= 0) {
      // Inside an escape sequence that began in a run: only CSI ... m may stay in it.
      const inCsi = action === ACTION_CLEAR || action === ACTION_PARAM || action === ACTION_COLLECT || action === ACTION_IGNORE;
      if (action === ACTION_CSI_DISPATCH && code === 0x6d && next === 0) {
        if (segStart >= 0) {
          sgrScratch = grow(sgrScratch, sgrCount + 2);
          sgrScratch[sgrCount++] = seqStart;
          sgrScratch[sgrCount++] = i + 1;
        }
        seqStart = -1;
      } else if (!(inCsi && (next === 1 || next === 3 || next === 4 || next === 5))) {
        closeSegment(seqStart);
        seqStart = -1;
      }
    }
    state = next;
    if (state === 0 && segStart < 0 && seqStart < 0) segStart = i + 1;
  }
  closeSegment(seqStart >= 0 ? seqStart : batch.length);
  return cuts.length === 0 ? batch : assemble(batch, cuts, ctx.rows);
}

// The last LF that still has keepLines LFs after it and rows LFs up to it,
// and is preceded by CR (so the column after it is 0 either way).
function chooseCut(batch: Uint8Array, lfs: Int32Array, count: number, rows: number, keepLines: number, end: number): number | undefined {
  for (let k = count - 1 - keepLines; k >= rows - 1; k--) {
    const at = lfs[k] as number;
    if (at >= end) continue;
    if (at > 0 && batch[at - 1] === CR) return at + 1;
  }
  return undefined;
}

function assemble(batch: Uint8Array, cuts: readonly Cut[], rows: number): Uint8Array {
  let size = batch.length;
  for (const cut of cuts) {
    size -= cut.end - cut.start;
    for (let i = 0; i < cut.sgr.length; i += 2) size += (cut.sgr[i + 1] ?? 0) - (cut.sgr[i] ?? 0);
    size += rows * 2;
  }
  const out = new Uint8Array(size);
  let from = 0;
  let at = 0;
  for (const cut of cuts) {
    out.set(batch.subarray(from, cut.start), at);
    at += cut.start - from;
    for (let i = 0; i < cut.sgr.length; i += 2) {
      const piece = batch.subarray(cut.sgr[i] ?? 0, cut.sgr[i + 1] ?? 0);
      out.set(piece, at);
      at += piece.length;
    }
    for (let r = 0; r < rows; r++) {
      out[at++] = CR;
      out[at++] = LF;
    }
    from = cut.end;
  }
  out.set(batch.subarray(from), at);
  return out;
}
