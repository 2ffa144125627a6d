// Screen reads without a change between them (a wait's answer and the
// screen sent with it, a client polling a quiet session) return the grid
// already read; anything that changes what a person would see (parsed
// output, a resize, a title) gives a fresh read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Screen } from "../../../lib/pty/screen.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

test("a read with nothing parsed since is the last read; output, a resize or a title make a new one", async () => {
  const screen = await Screen.create({ cols: 20, rows: 4, onReply: () => {}, onPressure: () => {} });
  try {
    screen.feed(bytes("hello"));
    await screen.settled();
    const first = screen.grid();
    assert.equal(screen.grid(), first, "nothing changed: the same read");
    assert.deepEqual(screen.grid(1).lines, first.lines, "a read with scrollback is read afresh");
    screen.feed(bytes(" world"));
    await screen.settled();
    const second = screen.grid();
    assert.notEqual(second, first);
    assert.equal(second.lines[0], "hello world");
    assert.notEqual(second.hash, first.hash);
    screen.resize(30, 5);
    const resized = screen.grid();
    assert.deepEqual(resized.size, { cols: 30, rows: 5 });
    assert.notEqual(resized.hash, second.hash);
    screen.feed(bytes("\x1b]2;a title\x07"));
    await screen.settled();
    assert.equal(screen.grid().title, "a title");
    assert.notEqual(screen.grid().hash, resized.hash);
  } finally {
    screen.dispose();
  }
});
