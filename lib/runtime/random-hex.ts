// Random hex for the guardian's token and socket name, read from
// /dev/urandom: on Node 20 `import "node:crypto"` loads about twenty internal
// modules (its ESM facade pulls in webcrypto too), some 5 ms of every
// `corral run`. The guardian runs on Linux only, where /dev/urandom is always
// there and, once the system has booted, never blocks.
import { closeSync, openSync, readSync } from "node:fs";

/** `bytes` random bytes as lowercase hex (2 characters a byte). */
export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  const fd = openSync("/dev/urandom", "r");
  try {
    for (let at = 0; at < bytes;) {
      const got = readSync(fd, buffer, at, bytes - at, null);
      if (got <= 0) throw new Error("/dev/urandom returned no bytes");
      at += got;
    }
  } finally {
    closeSync(fd);
  }
  return Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
}
