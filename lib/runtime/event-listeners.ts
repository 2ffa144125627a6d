// The events of the guardian's process and connection when they are made
// with Bun's or Deno's own API (lib/runtime/bun/guardian-spawn.ts, lib/runtime/deno/guardian-spawn.ts,
// lib/runtime/deno/guardian-conn.ts): the part of Node's EventEmitter a Guardian uses
// (on, once, off, emit), so those wrappers need no `node:events`. Under Deno
// that module is the first Node one `run` would load, about 5 ms of every
// start (issue 9). Node's rules are kept: listeners run in the order added,
// a listener added twice runs twice, `once` listeners go before they run,
// and an "error" nobody listens for is thrown.

type Listener = (...args: never[]) => void;

/** A subset of EventEmitter, with its semantics, for the runtime-native guardian wrappers. */
export class EventListeners {
  readonly #listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    // A fresh array, as in off(): an emit in progress does not call what was added during it.
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped = Object.assign((...args: never[]) => {
      this.off(event, wrapped);
      listener(...args);
    }, { listener });
    return this.on(event, wrapped);
  }

  /** Removes the last added copy of `listener` (or of a `once` wrapping it), as Node does. */
  off(event: string, listener: Listener): this {
    const list = this.#listeners.get(event);
    if (list === undefined) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      const candidate = list[i] as Listener & { listener?: Listener };
      if (candidate === listener || candidate.listener === listener) {
        // A fresh array: an emit in progress goes on over the one it started with.
        const rest = [...list.slice(0, i), ...list.slice(i + 1)];
        if (rest.length === 0) this.#listeners.delete(event);
        else this.#listeners.set(event, rest);
        break;
      }
    }
    return this;
  }

  emit(event: string, ...args: unknown[]): boolean {
    const list = this.#listeners.get(event);
    if (list === undefined) {
      if (event === "error") throw args[0] instanceof Error ? args[0] : new Error(`unhandled error event: ${String(args[0])}`);
      return false;
    }
    for (const listener of list) (listener as (...a: unknown[]) => void)(...args);
    return true;
  }

  listenerCount(event: string): number {
    return this.#listeners.get(event)?.length ?? 0;
  }
}
