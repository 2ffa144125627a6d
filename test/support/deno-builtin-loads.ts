// A Deno preload (`deno run --preload`) for test/cli/deno-builtins.test.ts:
// appends each Node module that Deno's hot bundles load for real (through
// process.getBuiltinModule, cli/hot/deno-builtins/deferred.ts) to the file
// named by $CORRAL_TEST_BUILTIN_LOADS, one name a line.
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
