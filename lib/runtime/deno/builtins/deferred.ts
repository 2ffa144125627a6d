// Node's built-in modules under Deno, loaded only when touched. Deno's
// hot bundles (cli/hot/build.mjs) import these stand-ins instead of
// `node:fs`, `node:process`, `node:child_process` and the like: in Deno the
// first import of such a module costs 15-30 ms (it brings Deno's Node
// streams), about the whole start-up aim of issue 9, whether or not the
// command uses it. A stand-in's exports forward every touch (call, `new`,
// property read) to the real module, which is loaded on the first touch
// through `process.getBuiltinModule` (synchronous, as the bundle's code
// expects; touching `process` is itself the cost, so only then).
// fs.ts and process.ts answer the few calls the hot paths make with Deno's
// own API instead, and hand anything else to the real module.

/** The real module `name` ("node:fs", ...), loaded on the first call. */
export function deferredBuiltin(name: string): () => Record<string, unknown> {
  let loaded: Record<string, unknown> | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    const process = (globalThis as unknown as { process: { getBuiltinModule(id: string): Record<string, unknown> } }).process;
    loaded = process.getBuiltinModule(name);
    return loaded;
  };
}

/**
 * One export of a deferred module, usable as the real one is: called,
 * constructed (also as a base class: `new.target` is passed on), or read
 * from (`fs.constants.F_OK`). A function stand-in, so that call and
 * construct can be trapped, whatever the real export is.
 */
export function deferredExport(load: () => Record<string, unknown>, key: string): unknown {
  const real = () => load()[key] as (...args: unknown[]) => unknown;
  return new Proxy(function deferred() {}, {
    apply: (_target, self, args) => Reflect.apply(real(), self, args),
    // newTarget is this stand-in (its `prototype` read through to the real one) or a subclass of it.
    construct: (_target, args, newTarget) => Reflect.construct(real() as unknown as new (...a: unknown[]) => object, args, newTarget),
    get: (_target, property) => Reflect.get(real(), property),
    has: (_target, property) => property in real(),
  });
}

/**
 * The module object (`import fs from "node:fs"`): `own` answers what it
 * has, the real module the rest. Writes go to the real module, except to
 * a property `own` defines (process.exitCode).
 */
export function deferredModule(load: () => Record<string, unknown>, own: object): Record<string, unknown> {
  return new Proxy(own as Record<string, unknown>, {
    get: (target, property) => (property in target ? Reflect.get(target, property) : Reflect.get(load(), property)),
    set: (target, property, value) => (property in target ? Reflect.set(target, property, value) : Reflect.set(load(), property, value)),
    has: (target, property) => property in target || property in load(),
  });
}
