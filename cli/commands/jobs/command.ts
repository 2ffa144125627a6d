// `corral jobs`, `fg`, `bg`, `reap`: the job table of the agent seen from a
// shell (issue 5). Definitions only; the actions load lazily.
import { buildCommand, buildRouteMap, type TypedPositionalParameters } from "@stricli/core";
import { type CorralContext, type FgFlags, type JobsFlags, type JobsWaitFlags, parseDurationFlag, type ReapFlags, agentFlags } from "./flags.ts";
import { HELP_DEFAULT } from "./flags.ts";

const jobIdPositional: TypedPositionalParameters<[string?], CorralContext> = {
  kind: "tuple",
  parameters: [{ brief: "Job id: N or %N, %+ (current), %- (previous), or its --name; default the current job", parse: (s: string) => s, placeholder: "job", optional: true }],
};

/** `corral jobs`: the table, never starting the agent. */
export const jobsCommand = buildCommand<JobsFlags, [], CorralContext>({
  loader: async () => (await import("./list.ts")).jobsAction,
  parameters: {
    flags: {
      json: { kind: "boolean", default: false, brief: "One JSON object: {jobs: [...]} with exit facts, bytes, start time" },
      ...agentFlags,
    },
  },
  docs: {
    brief: "List jobs: %N id, state (running, stopped, done), pid, bytes of output, command",
    fullDescription: [
      "Lists the jobs the agent holds, as a shell's jobs does: [N] with + for the current job",
      "and - for the previous one, the state (running, stopped, done with its exit status),",
      "the pid, the bytes of output kept so far and the command. A finished job stays listed,",
      "with its exit facts, until corral reap retires it. Never starts the agent.",
      "",
      "Examples:",
      "  corral jobs",
      "  corral jobs --json | jq '.jobs[] | select(.state == \"done\") | .status'",
    ].join("\n"),
  },
});

/** `corral jobs wait`: block until jobs end; the status says whether all succeeded. */
export const jobsWaitCommand = buildCommand<JobsWaitFlags, string[], CorralContext>({
  loader: async () => (await import("./wait.ts")).jobsWaitAction,
  parameters: {
    flags: {
      any: { kind: "boolean", default: false, brief: "Return when the first of them ends, with its status" },
      timeout: { kind: "parsed", parse: parseDurationFlag("--timeout"), optional: true, placeholder: "dur", brief: "Give up after this long: exit 124, naming the jobs still running" },
      json: { kind: "boolean", default: false, brief: "One JSON line per job as it ends (the `corral jobs --json` job object)" },
      ...agentFlags,
    },
    positional: {
      kind: "array",
      parameter: { brief: "Job ids (N, %N, %+, %-, a --name); default every job still running", parse: (s: string) => s, placeholder: "job" },
    },
  },
  docs: {
    brief: "Wait for jobs to end: exit 0 when all succeeded, else the status of the first that failed",
    fullDescription: [
      "Waits for the named jobs (every job not yet done when none is named) and prints one line per",
      "job as it ends: [N]  done (exit 0)  ... as corral jobs shows it, or with --json the job object.",
      "Exit 0 when every one ended with status 0; otherwise the status of the first that failed, in",
      "the order they ended (128+N for a signal). --any returns when the first ends, with its status.",
      "--timeout DUR: exit 124 when they have not all ended by then (they keep running). A job that",
      "had ended already counts at once. Exit 2 for a malformed id, 1 for an unknown one. With no",
      "agent running there are no jobs: exit 0 when none is named.",
      "",
      "Examples:",
      "  corral run --bg --name unit -- npm test; corral run --bg --name lint -- npm run lint",
      "  corral jobs wait unit lint",
      "  corral jobs wait --any --timeout 30m",
      "  corral jobs wait --json | jq -c '{id, status}'",
    ].join("\n"),
  },
});

/** `corral jobs` (list, the default) and `corral jobs wait`. */
export const jobsRoutes = buildRouteMap<"list" | "wait", CorralContext>({
  routes: { list: jobsCommand, wait: jobsWaitCommand },
  defaultCommand: "list",
  docs: {
    brief: "List jobs (corral jobs), or wait for them to end (corral jobs wait)",
    fullDescription: [
      "Jobs are commands the agent runs for you (corral run --bg, corral run --tty), with a",
      "bounded copy of their output. corral jobs (or corral jobs list) lists them; corral jobs",
      "wait waits for them to end. corral fg, bg, reap and collect --job act on them.",
      "",
      "Examples:",
      "  corral run --bg --name unit -- npm test",
      "  corral jobs",
      "  corral jobs wait unit",
      "  corral collect --job unit --tail-lines 50",
    ].join("\n"),
  },
});

/** `corral fg`: this terminal to a job, then SIGCONT. */
export const fgCommand = buildCommand<FgFlags, [string?], CorralContext>({
  loader: async () => (await import("./fg.ts")).fgAction,
  parameters: { flags: { ...agentFlags }, positional: jobIdPositional },
  docs: {
    brief: "Bring a stopped or background job to the foreground of this terminal",
    fullDescription: [
      "Hands this terminal to the job (raw mode, input forwarded, window size followed), then",
      "continues it (SIGCONT to all of it). Ctrl-Z parks it again (exit 148). When it ends,",
      "corral exits with its status. A job that already finished: its exit facts are printed",
      "and corral exits with its status. Exit 2 for a malformed id, 1 for an unknown one.",
      "",
      "Examples:",
      "  corral fg",
      "  corral fg %2",
      "  corral fg editor",
    ].join("\n"),
  },
});

/** `corral bg`: a stopped job continues without a terminal. */
export const bgCommand = buildCommand<FgFlags, [string?], CorralContext>({
  loader: async () => (await import("./fg.ts")).bgAction,
  parameters: { flags: { ...agentFlags }, positional: jobIdPositional },
  docs: {
    brief: "Continue a stopped job in the background (output keeps going to its store)",
    fullDescription: [
      "Continues a stopped job without a terminal: it runs on, its output is kept (bounded)",
      "for collect --job, and it gets no input. Exit 2 for a malformed id, 1 for an unknown one.",
      "",
      "Examples:",
      "  corral bg",
      "  corral bg %1",
    ].join("\n"),
  },
});

/** `corral reap`: retire finished things, --all terminates the rest, orphans of dead agents too. */
export const reapCommand = buildCommand<ReapFlags, [], CorralContext>({
  loader: async () => (await import("./reap.ts")).reapAction,
  parameters: {
    flags: {
      all: { kind: "boolean", default: false, brief: "Also terminate every job and session still running (whole trees)" },
      grace: { kind: "parsed", parse: parseDurationFlag("--grace"), optional: true, placeholder: "dur", brief: `Time between SIGTERM and SIGKILL with --all (default ${HELP_DEFAULT.grace})` },
      json: { kind: "boolean", default: false, brief: "One JSON object: {jobs, sessions, orphans}, each with exit facts and a receipt" },
      ...agentFlags,
    },
  },
  docs: {
    brief: "Retire finished jobs and sessions; --all terminates what is still running",
    fullDescription: [
      "Retires every finished job and exited session, printing its exit facts. With --all it",
      "first terminates every job and session still running (SIGTERM, --grace, SIGKILL, through",
      "the guardian's census). It also cleans up after an agent that died (SIGKILL, OOM): the",
      "guardians it recorded in the state dir are found and their trees terminated. Each item",
      "gets a receipt: confirmed, or uncertain with the reason. Idempotent; never starts the",
      "agent. Exit 0 when every receipt is confirmed, 1 otherwise.",
      "",
      "Examples:",
      "  corral reap",
      "  corral reap --all --grace 2s",
      "  corral reap --all --json",
    ].join("\n"),
  },
});
