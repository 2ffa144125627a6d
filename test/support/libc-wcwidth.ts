// The C library's own wcwidth(), asked through python3's ctypes: the width
// every program on this machine (bash, readline, vim, curses) gives text,
// and so the column the cursor must be at after it.
import { execFileSync } from "node:child_process";

const PROBE = `
import ctypes, json, locale, sys
locale.setlocale(locale.LC_ALL, "C.UTF-8")
libc = ctypes.CDLL(None)
libc.wcwidth.argtypes = [ctypes.c_wchar]
libc.wcwidth.restype = ctypes.c_int
def w(c):
    n = libc.wcwidth(c)
    return 1 if n < 0 else n
if sys.argv[1] == "table":
    out = bytearray(0x110000)
    for cp in range(0x110000):
        out[cp] = 255 if 0xD800 <= cp <= 0xDFFF else libc.wcwidth(chr(cp)) & 255
    sys.stdout.buffer.write(bytes(out))
else:
    print(json.dumps([sum(w(c) for c in s) for s in json.load(sys.stdin)]))
`;

const known = new Map<string, number>();

/** Columns of each string by the C library: the sum of wcwidth over its code points (-1 counts 1, as tmux counts it). */
export function libcWidths(strings: readonly string[]): number[] {
  const missing = [...new Set(strings.filter((s) => !known.has(s)))];
  if (missing.length > 0) {
    const widths = JSON.parse(execFileSync("python3", ["-c", PROBE, "strings"], { input: JSON.stringify(missing), encoding: "utf8" })) as number[];
    missing.forEach((s, i) => known.set(s, widths[i] as number));
  }
  return strings.map((s) => known.get(s) as number);
}

/** wcwidth() of every code point (index = code point; -1 not printable, 255 surrogates). */
export function libcTable(): Int8Array {
  const bytes = execFileSync("python3", ["-c", PROBE, "table"], { maxBuffer: 4 * 1024 * 1024 });
  return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}
