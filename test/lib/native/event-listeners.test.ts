// lib/runtime/event-listeners.ts stands in for node:events in the guardian
// wrappers of Bun and Deno: each rule a Guardian relies on is checked against
// Node's own EventEmitter, side by side.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { EventListeners } from "../../../lib/runtime/event-listeners.ts";

type Emitter = Pick<EventEmitter, "on" | "once" | "off" | "emit" | "listenerCount">;
const both = (): [string, Emitter][] => [["ours", new EventListeners() as unknown as Emitter], ["node:events", new EventEmitter()]];

/** Runs `scenario` on both emitters and compares what each recorded. */
function sameAsNode(scenario: (emitter: Emitter, heard: string[]) => void): void {
  const [ours, node] = both().map(([name, emitter]) => {
    const heard: string[] = [];
    try {
      scenario(emitter, heard);
    } catch (error) {
      heard.push(`threw ${(error as Error).message}`);
    }
    return [name, heard] as const;
  });
  assert.deepEqual(ours![1], node![1]);
}

test("listeners run in the order added, with the arguments, and a twice-added listener twice", () => {
  sameAsNode((e, heard) => {
    const a = (x: unknown, y: unknown) => heard.push(`a ${String(x)} ${String(y)}`);
    e.on("data", a);
    e.on("data", (x: unknown) => heard.push(`b ${String(x)}`));
    e.on("data", a);
    heard.push(String(e.emit("data", 1, 2)), String(e.emit("nobody", 1)), String(e.listenerCount("data")));
  });
});

test("once runs once; off removes the last added copy, and a once listener by its own function", () => {
  sameAsNode((e, heard) => {
    const a = () => heard.push("a");
    e.once("close", () => heard.push("once"));
    e.on("close", a);
    e.on("close", a);
    e.off("close", a);
    e.emit("close");
    e.emit("close");
    const b = () => heard.push("b");
    e.once("drain", b);
    e.off("drain", b);
    e.emit("drain");
    e.off("never", b);
    heard.push(String(e.listenerCount("close")), String(e.listenerCount("drain")));
  });
});

test("listeners added or removed during an emit take effect from the next emit", () => {
  sameAsNode((e, heard) => {
    const late = () => heard.push("late");
    const second = () => heard.push("second");
    e.on("x", () => {
      heard.push("first");
      e.on("x", late);
      e.off("x", second);
    });
    e.on("x", second);
    e.emit("x");
    e.emit("x");
  });
});

test("an error nobody listens for is thrown; one listened for is not", () => {
  sameAsNode((e, heard) => {
    try {
      e.emit("error", new Error("lost"));
    } catch (error) {
      heard.push(`thrown ${(error as Error).message}`);
    }
    e.on("error", (error: Error) => heard.push(`heard ${error.message}`));
    e.emit("error", new Error("kept"));
  });
});
