// `collect --group TITLE`: fold a step's output in the CI log, with the
// markers of the CI system the environment names, else a plain title line.
//   GitHub Actions (GITHUB_ACTIONS=true): ::group::TITLE ... ::endgroup::
//   GitLab CI (GITLAB_CI set): ESC[0Ksection_start:EPOCH:NAME[collapsed=true]CR ESC[0KTITLE
//                              ... ESC[0Ksection_end:EPOCH:NAME CR ESC[0K
//   elsewhere: "== TITLE ==" before, nothing after.

/** The two marker lines for this environment; `end` is built when the step ends (GitLab's carries that time), "" when none. */
export interface GroupMarkers {
  readonly start: string;
  readonly end: (nowSeconds?: number) => string;
  readonly system: "github" | "gitlab" | "plain";
}

/** Markers for `title` in `env`; `now` (epoch seconds, the start) and `id` make a GitLab section name unique. */
export function groupMarkers(title: string, env: NodeJS.ProcessEnv, now = Math.floor(Date.now() / 1000), id = process.pid): GroupMarkers {
  // One line each: a newline in the title would end the marker early.
  const oneLine = title.replace(/[\r\n]+/g, " ");
  if (env.GITHUB_ACTIONS === "true") {
    return { system: "github", start: `::group::${oneLine}\n`, end: () => "::endgroup::\n" };
  }
  if (env.GITLAB_CI !== undefined && env.GITLAB_CI !== "") {
    // GitLab section names: letters, digits, _ . - only.
    const name = `corral_${oneLine.toLowerCase().replace(/[^a-z0-9_.-]+/g, "_").slice(0, 40)}_${id}`;
    return {
      system: "gitlab",
      start: `\x1b[0Ksection_start:${now}:${name}[collapsed=true]\r\x1b[0K${oneLine}\n`,
      // GitLab shows the section's duration as end minus start: the end's time is taken when it is written.
      end: (nowSeconds = Math.floor(Date.now() / 1000)) => `\x1b[0Ksection_end:${Math.max(now, nowSeconds)}:${name}\r\x1b[0K\n`,
    };
  }
  return { system: "plain", start: `== ${oneLine} ==\n`, end: () => "" };
}
