// A Deno preload (`deno run --preload`) for test/cli/deno-builtins.test.ts:
// appends each Node module that Deno's hot bundles load for real (through
// process.getBuiltinModule, lib/runtime/deno/builtins/deferred.ts) to the file
// named by $CORRAL_TEST_BUILTIN_LOADS, one name a line; and each global whose
// first touch makes Deno load a Node module (Buffer: node:buffer; the Node
// timers: node:timers), as "global NAME".
interface DenoWrite {
  env: { get(name: string): string | undefined };
  writeTextFileSync(path: string, text: string, options: { append: boolean }): void;
}
const deno = (globalThis as unknown as { Deno: DenoWrite }).Deno;
const record = deno.env.get("CORRAL_TEST_BUILTIN_LOADS");
const proc = (globalThis as unknown as { process: { getBuiltinModule(id: string): unknown } }).process;
const original = proc.getBuiltinModule.bind(proc);
proc.getBuiltinModule = (id: string) => {
  if (record !== undefined) deno.writeTextFileSync(record, `${id}\n`, { append: true });
  return original(id);
};

/** Globals Deno defines as getters that load a Node module on first touch. */
const LOADING_GLOBALS = ["Buffer", "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"];
for (const name of LOADING_GLOBALS) {
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  const get = own?.get;
  if (own === undefined || get === undefined) continue;
  let told = false;
  Object.defineProperty(globalThis, name, {
    ...own,
    get() {
      if (record !== undefined && !told) deno.writeTextFileSync(record, `global ${name}\n`, { append: true });
      told = true;
      return get.call(this);
    },
  });
}
