// The hottest commands (run, collect, pty, jobs and its siblings) each have
// a bundle of their own in the built CLI: dist/hot/<name>.cjs, one file with
// no code splitting, which cli/main.ts loads instead of the whole-table path
// (run-app.ts over the registry). Why (issue 9, start-up): Node 20's ESM
// loader costs about 1.5 ms of CPU per file, and the split build made `run`
// load 21 files and `pty send` 31; one file per command took about 30 ms off
// `run -- true`. The bundle holds the command's lazily loaded parts too
// (the one file is the point), so it is larger than what the split build
// loads; V8 only pre-parses what does not run.
import type { CommandTarget } from "../route-map.ts";
import { routeMapOf } from "../route-map.ts";
import { runAppOver } from "../run-routes.ts";

/** The runApp of a one-command bundle over `targets` (the commands that bundle answers). */
export function hotApp(targets: Readonly<Record<string, CommandTarget>>): (args: readonly string[]) => Promise<void> {
  return async (args) => {
    const name = args[0];
    const target = name === undefined ? undefined : targets[name];
    // cli/main.ts sends only the names of HOT_BUNDLES here; anything else is a build mistake.
    if (name === undefined || target === undefined) throw new Error(`corral: the bundle for ${Object.keys(targets).join(", ")} was asked to run ${JSON.stringify(name)}`);
    await runAppOver(routeMapOf({ [name]: target }), args);
  };
}
