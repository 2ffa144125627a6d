// Which first arguments have a one-command bundle (hot-app.ts says why), and
// which bundle: dist/hot/<bundle>.cjs, built from cli/hot/<bundle>.ts.
// Both entries (cli/main.ts, cli/node-entry.ts) decide through hotBundleOf;
// test/cli/hot-bundles.test.ts checks the table against the registry and
// the bundles' own tables.

/** First argument to the bundle that answers it. */
export const HOT_BUNDLES: Readonly<Record<string, string>> = {
  run: "run",
  collect: "collect",
  pty: "pty",
  jobs: "jobs",
  fg: "jobs",
  bg: "jobs",
  reap: "jobs",
};

/**
 * The bundles Bun runs from their own copy with bytecode,
 * dist/hot/<bundle>.bun.cjs (cli/hot/build.mjs says why and how).
 */
export const BUN_BYTECODE_BUNDLES: readonly string[] = ["run", "collect"];

/** What an entry does with `args`: print the version, run a hot bundle, or load the whole command table. */
export type EntryRoute = { readonly kind: "version" } | { readonly kind: "hot"; readonly bundle: string } | { readonly kind: "table" };

export function entryRoute(args: readonly string[]): EntryRoute {
  if (args.length === 1 && args[0] === "--version") return { kind: "version" };
  const first = args[0];
  const bundle = first !== undefined && Object.hasOwn(HOT_BUNDLES, first) ? HOT_BUNDLES[first] : undefined;
  return bundle === undefined ? { kind: "table" } : { kind: "hot", bundle };
}
