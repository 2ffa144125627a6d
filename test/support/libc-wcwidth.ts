// The C library's own wcwidth(), asked through python3's ctypes: the width
// every program on this machine (bash, readline, vim, curses) gives text,
// and so the column the cursor must be at after it.
import { execFileSync } from "node:child_process";

const PROBE = `
import ctypes, locale, sys
locale.setlocale(locale.LC_ALL, "C.UTF-8")
libc = ctypes.CDLL(None)
libc.wcwidth.argtypes = [ctypes.c_wchar]
libc.wcwidth.restype = ctypes.c_int
out = bytearray(0x110000)
for cp in range(0x110000):
    out[cp] = 255 if 0xD800 <= cp <= 0xDFFF else libc.wcwidth(chr(cp)) & 255
sys.stdout.buffer.write(bytes(out))
`;

let table: Int8Array | undefined;

/**
 * Columns of each string by the C library: the sum of wcwidth over its code
 * points (-1 counts 1, as tmux counts it). From the one table of every code
 * point (libcTable), built once per test file: tests ask inside their polls,
 * and a python3 per new string was most of a width test's CPU.
 */
export function libcWidths(strings: readonly string[]): number[] {
  const widths = libcTable();
  return strings.map((s) => {
    let columns = 0;
    for (const ch of s) {
      const w = widths[ch.codePointAt(0)!]!;
      columns += w < 0 ? 1 : w;
    }
    return columns;
  });
}

/** wcwidth() of every code point (index = code point; -1 where not printable, and for surrogates). Built once per process. */
export function libcTable(): Int8Array {
  if (table === undefined) {
    const bytes = execFileSync("python3", ["-c", PROBE], { maxBuffer: 4 * 1024 * 1024 });
    table = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  return table;
}
