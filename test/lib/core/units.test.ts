import { test } from "node:test";
import assert from "node:assert/strict";
import { DurationError, formatDuration, parseDuration } from "../../../lib/core/duration.ts";
import { SizeError, formatSize, parseSize } from "../../../lib/core/size.ts";

test("durations: one table for every flag, config key and variable", () => {
  const table: [string, number][] = [
    ["250ms", 250],
    ["10s", 10_000],
    ["1.5s", 1500],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["1d", 86_400_000],
    ["3", 3000],
    ["0", 0],
    [" 2m ", 120_000],
    ["1h30m", 5_400_000],
    ["2m30s", 150_000],
    ["1d12h", 129_600_000],
    ["1m0.5s", 60_500],
    ["1s250ms", 1250],
    ["1d2h3m4s5ms", 93_784_005],
    ["24d20h31m23s647ms", 2 ** 31 - 1],
  ];
  for (const [text, ms] of table) assert.equal(parseDuration(text), ms, text);
  const bad = ["", "ms", "10x", "-1s", "1 day", "10S", "30m1h", "1m1m", "1h 30m", "1h30", "h", "1.s", "25d", "24d20h31m23s648ms"];
  for (const text of bad) assert.throws(() => parseDuration(text), DurationError, text);
  for (const [ms, text] of [[120_000, "2m"], [250, "250ms"], [0, "0s"], [5_400_000, "1h30m"], [86_400_000, "1d"], [1500, "1s500ms"]] as const) {
    assert.equal(formatDuration(ms), text);
    assert.equal(parseDuration(text), ms, `${text} reads back`);
  }
});

test("sizes", () => {
  assert.equal(parseSize("4096"), 4096);
  assert.equal(parseSize("64k"), 65536);
  assert.equal(parseSize("1KiB"), 1024);
  assert.equal(parseSize("1MiB"), 1048576);
  assert.equal(parseSize("10M"), 10 * 1048576);
  assert.equal(parseSize("1G"), 1024 ** 3);
  assert.equal(parseSize("2KB"), 2000);
  assert.equal(parseSize("1MB"), 1_000_000);
  assert.equal(parseSize("1GB"), 1e9);
  for (const bad of ["", "k", "10q", "-5", "1 TB", "1mb", "0x10"]) {
    assert.throws(() => parseSize(bad), SizeError, bad);
  }
  assert.equal(formatSize(1048576), "1MiB");
  assert.equal(formatSize(1000), "1000");
});
