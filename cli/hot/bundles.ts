// Which first arguments have a one-command bundle (hot-app.ts says why), and
// which bundle: dist/hot/<bundle>.mjs, built from cli/hot/<bundle>.ts.
// cli/main.ts reads this; test/cli/hot-bundles.test.ts checks it against the
// registry and the bundles' own tables.

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
