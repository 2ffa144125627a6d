// Live ids for shell completion: the generated scripts run
// `corral completions --ids sessions|jobs` and offer what it prints (one id
// a line). Kept here, apart from the generators, so the AGENT and JOBS work
// can plug in real sources without touching the scripts.
//
// How to plug in a source (a new kind, or a new way to list one):
//   sessions: async (env) => (await import("./agent-ids.ts")).sessionIds(env),
// Rules for a source: import lazily (as above); NEVER start the agent (if its
// socket does not answer, return []); answer within about a second; print
// nothing. Errors are swallowed: completion must stay silent.
//
// Which parameters hold ids: a positional or flag whose placeholder is
// SESSION (sessions) or JOB (jobs), or an entry in ID_PARAMETERS below.

type Env = Readonly<Record<string, string | undefined>>;

/** The kinds of live ids the scripts can complete. */
export type IdKind = "sessions" | "jobs";

/** Every id kind, for the `--ids` flag's values. */
export const ID_KINDS: readonly IdKind[] = ["sessions", "jobs"];

/** Returns the ids currently known (session names/ids, `%N` job ids). */
export type IdSource = (env: Env) => Promise<readonly string[]>;

/** The sources: both ask a running agent (cli/commands/completions/agent-ids.ts). */
export const ID_SOURCES: Record<IdKind, IdSource> = {
  sessions: async (env) => (await import("./agent-ids.ts")).sessionIds(env),
  jobs: async (env) => (await import("./agent-ids.ts")).jobIds(env),
};

/**
 * Parameters holding ids, for commands whose placeholders do not say so:
 * `"<command path> <index>"` names a positional (0 for the first, or for
 * all of an array), `"<command path> --flag"` a flag.
 */
export const ID_PARAMETERS: Readonly<Record<string, IdKind>> = {
  // Empty while every id parameter's placeholder says `session` or `job`.
};

/** Placeholders that mark an id parameter (compared case-insensitively). */
export const ID_PLACEHOLDERS: Readonly<Record<string, IdKind>> = {
  session: "sessions",
  job: "jobs",
  "%n": "jobs",
};

/** The ids of one kind, or [] on any failure (completion stays silent). */
export async function listIds(kind: IdKind, env: Env): Promise<readonly string[]> {
  try {
    return await ID_SOURCES[kind](env);
  } catch {
    return [];
  }
}
