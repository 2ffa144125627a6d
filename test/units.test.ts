import { test } from "node:test";
import assert from "node:assert/strict";
import { DurationError, formatDuration, parseDuration } from "../lib/units/duration.ts";
import { SizeError, formatSize, parseSize } from "../lib/units/size.ts";

test("durations", () => {
  assert.equal(parseDuration("250ms"), 250);
  assert.equal(parseDuration("10s"), 10_000);
  assert.equal(parseDuration("1.5s"), 1500);
  assert.equal(parseDuration("2m"), 120_000);
  assert.equal(parseDuration("1h"), 3_600_000);
  assert.equal(parseDuration("3"), 3000);
  for (const bad of ["", "ms", "10x", "-1s", "1 day", "10S"]) {
    assert.throws(() => parseDuration(bad), DurationError, bad);
  }
  assert.equal(formatDuration(120_000), "2m");
  assert.equal(formatDuration(250), "250ms");
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
