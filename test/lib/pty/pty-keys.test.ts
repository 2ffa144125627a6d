import { test } from "node:test";
import assert from "node:assert/strict";
import { UnknownKeyError, encodeKey, encodeKeys, validateKeys } from "../../../lib/pty/keys.ts";

const normal = { applicationCursor: false };
const app = { applicationCursor: true };

test("plain keys in tmux spelling, case-insensitive", () => {
  assert.equal(encodeKey("Enter", normal), "\r");
  assert.equal(encodeKey("enter", normal), "\r");
  assert.equal(encodeKey("Tab", normal), "\t");
  assert.equal(encodeKey("BTab", normal), "\x1b[Z");
  assert.equal(encodeKey("Escape", normal), "\x1b");
  assert.equal(encodeKey("BSpace", normal), "\x7f");
  assert.equal(encodeKey("Space", normal), " ");
  assert.equal(encodeKey("PageUp", normal), "\x1b[5~");
  assert.equal(encodeKey("PPage", normal), "\x1b[5~");
  assert.equal(encodeKey("NPage", normal), "\x1b[6~");
  assert.equal(encodeKey("PageDown", normal), "\x1b[6~");
  assert.equal(encodeKey("DC", normal), "\x1b[3~");
  assert.equal(encodeKey("Delete", normal), "\x1b[3~");
  assert.equal(encodeKey("IC", normal), "\x1b[2~");
  assert.equal(encodeKey("Insert", normal), "\x1b[2~");
  assert.equal(encodeKey("F1", normal), "\x1bOP");
  assert.equal(encodeKey("f4", normal), "\x1bOS");
  assert.equal(encodeKey("F5", normal), "\x1b[15~");
  assert.equal(encodeKey("F12", normal), "\x1b[24~");
});

test("cursor keys follow application-cursor mode", () => {
  for (const [key, letter] of [["Up", "A"], ["Down", "B"], ["Right", "C"], ["Left", "D"], ["Home", "H"], ["End", "F"]]) {
    assert.equal(encodeKey(key as string, normal), `\x1b[${letter}`);
    assert.equal(encodeKey(key as string, app), `\x1bO${letter}`);
  }
});

test("modified special keys use xterm's parameter form in both modes", () => {
  assert.equal(encodeKey("C-Left", normal), "\x1b[1;5D");
  assert.equal(encodeKey("C-Left", app), "\x1b[1;5D");
  assert.equal(encodeKey("S-Left", normal), "\x1b[1;2D");
  assert.equal(encodeKey("M-Left", normal), "\x1b[1;3D");
  assert.equal(encodeKey("C-S-Up", normal), "\x1b[1;6A");
  assert.equal(encodeKey("C-PageUp", normal), "\x1b[5;5~");
  assert.equal(encodeKey("S-F1", normal), "\x1b[1;2P");
  assert.equal(encodeKey("S-Tab", normal), "\x1b[Z");
});

test("control and meta characters in every common spelling", () => {
  for (const spelling of ["C-c", "c-C", "Ctrl-C", "ctrl+c", "CTRL-c", "Control-c", "^C", "^c"]) {
    assert.equal(encodeKey(spelling, normal), "\x03", spelling);
  }
  assert.equal(encodeKey("C-a", normal), "\x01");
  assert.equal(encodeKey("C-z", normal), "\x1a");
  assert.equal(encodeKey("C-[", normal), "\x1b");
  assert.equal(encodeKey("C-\\", normal), "\x1c");
  assert.equal(encodeKey("C-Space", normal), "\x00");
  assert.equal(encodeKey("^?", normal), "\x7f");
  assert.equal(encodeKey("M-x", normal), "\x1bx");
  assert.equal(encodeKey("M-X", normal), "\x1bX");
  assert.equal(encodeKey("Alt-x", normal), "\x1bx");
  assert.equal(encodeKey("C-M-x", normal), "\x1b\x18");
  assert.equal(encodeKey("M-Enter", normal), "\x1b\r");
  assert.equal(encodeKey("S-a", normal), "A");
});

test("a single character is itself; ^ alone and - alone too", () => {
  assert.equal(encodeKey("a", normal), "a");
  assert.equal(encodeKey("Z", normal), "Z");
  assert.equal(encodeKey("^", normal), "^");
  assert.equal(encodeKey("-", normal), "-");
  assert.equal(encodeKey("é", normal), "é");
});

test("unknown names throw an error naming the key, before anything is encoded", () => {
  for (const bad of ["Entr", "F13", "C-Entr", "Hyper-x", "C-1", "", "ctrl-", "^CC"]) {
    assert.throws(() => encodeKey(bad, normal), (e: unknown) => e instanceof UnknownKeyError && e.key === bad, bad);
  }
  assert.throws(() => encodeKeys(["Enter", "Nope", "Tab"], normal), (e: unknown) => e instanceof UnknownKeyError && e.key === "Nope" && /Nope/.test(e.message));
  assert.throws(() => validateKeys(["Up", "Bogus"]), UnknownKeyError);
  assert.doesNotThrow(() => validateKeys(["Up", "C-c", "^D", "F10"]));
});
