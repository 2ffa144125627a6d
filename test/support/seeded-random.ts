// Seeded randomness for fuzz tests: a failure names its seed, and setting
// CORRALTEST_FUZZ_SEED=<seed> replays exactly that input.
import process from "node:process";

export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1), like Math.random. */
  next(): number;
  /** An integer in [0, below). */
  below(below: number): number;
  bytes(n: number): Uint8Array;
}

/** mulberry32: small, fast, and enough to vary fuzz input (not for secrets). */
export function seededRandom(seed = fuzzSeed()): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n: number): number => Math.floor(next() * n);
  return { seed, next, below, bytes: (n) => Uint8Array.from({ length: n }, () => below(256)) };
}

/** The seed from $CORRALTEST_FUZZ_SEED, else a fresh one. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.CORRALTEST_FUZZ_SEED;
  if (given !== undefined && given !== "") {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`CORRALTEST_FUZZ_SEED must be an integer from 0 to 4294967295, got ${given}`);
    return seed;
  }
  return Math.floor(Math.random() * 0x100000000);
}
