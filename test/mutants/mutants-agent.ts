// The mutants of the agent: jobs and sessions that outlive it (a job's spill
// written by its guardian across the agent's death), its budgets and
// fairness, its state dir and socket, and the client's trust in it.
import { type Mutant, script } from "./mutant.ts";

export const agentMutants: readonly Mutant[] = [
  // A job's spill across the agent's death: the guardian writes it (--job-spill), owned or not.
  {
    name: "job-spill-unowned-dropped",
    guarantee: "It is killed (the agent)",
    also: ["jobs"],
    bug: "the guardian stops writing a job's spill while no agent owns it (only its 1 MiB tail is kept)",
    mutations: [{ file: "native/streams.c", from: "if (i == 1) job_spill_write(g, buf, fill);", to: "if (i == 1 && !orphaned(g)) job_spill_write(g, buf, fill);" }],
    tests: script("job-spill-agent-killed-mid-burst.sh"),
  },
  {
    name: "job-spill-by-agent",
    guarantee: "It is killed (the agent)",
    also: ["jobs"],
    bug: "the agent writes a job's spill itself, as before (a killed agent loses what the job wrote meanwhile)",
    mutations: [
      { file: "lib/jobs/start-job.ts", from: "...(spillByGuardian ? { externalSpill: true, spillWrittenAhead: true } : {}),", to: "" },
      { file: "lib/jobs/start-job.ts", from: "...(spillByGuardian ? { spillByGuardian: true } : {}),", to: "" },
    ],
    tests: script("job-spill-agent-killed-mid-burst.sh"),
  },
  {
    name: "job-spill-flag-not-passed",
    guarantee: "It is killed (the agent)",
    also: ["jobs"],
    bug: "the agent does not pass --job-spill to the job's guardian (nobody writes the spill)",
    mutations: [{ file: "lib/supervise/guardian/protocol.ts", from: 'opt("--job-spill", launch.jobSpill);', to: "" }],
    tests: script("job-spill-agent-killed-mid-burst.sh"),
  },
  {
    name: "session-readopt-forgets-name",
    guarantee: "sessions",
    bug: "a session taken over by a new agent loses its name",
    mutations: [{ file: "lib/agent/server/adoption/adopt.ts", from: "ctx.registry.adopt(session, facts.id, facts.name, facts.scrollback)", to: "ctx.registry.adopt(session, facts.id, null, facts.scrollback)" }],
    tests: script("agent-readopt-after-sigkill.sh"),
  },
  {
    name: "job-gap-unreported",
    guarantee: "jobs",
    bug: "a job taken over without its spill does not report the bytes lost while no agent held it",
    mutations: [{ file: "lib/agent/server/adoption/job-adopt.ts", from: "if (tailStart > from) gap = { from, to: tailStart };", to: "" }],
    tests: script("agent-flood-while-unowned.sh"),
  },
  {
    name: "done-job-forgotten",
    guarantee: "programs that exited",
    bug: "a job's end is not written down for the next agent: a killed agent forgets the jobs that ended",
    mutations: [{
      file: "lib/jobs/job-table.ts",
      from: 'if (change === "done" && this.#endsIn !== null) writeDoneJob(this.#endsIn, job);',
      to: 'if (change === "done" && this.#endsIn === "") writeDoneJob(this.#endsIn, job);',
    }],
    tests: script("job-end-survives-agent-kill.sh"),
  },
  {
    name: "session-end-not-written",
    guarantee: "sessions that ended",
    bug: "a session's end is not written down for the next agent: a killed agent forgets the sessions that ended",
    mutations: [{ file: "lib/agent/server/session-ends.ts", from: "  if (!/^\\d+$/.test(record.id)) return;", to: "  return;" }],
    tests: script("session-end-survives-agent.sh"),
  },
  {
    name: "screen-budget-charges-possible",
    guarantee: "Memory budgets",
    bug: "every session is charged its whole possible scrollback, cols x (rows + scrollback), as before",
    mutations: [{ file: "lib/agent/server/session-registry.ts", from: "      const held = entry.session.cellsHeld?.();", to: "      const held = undefined as number | undefined;" }],
    tests: script("pty-many-idle-sessions.sh"),
  },
  {
    name: "frame-budget-unchecked",
    guarantee: "Memory budgets",
    bug: "the agent-wide budget on unfinished frames is never enforced",
    mutations: [{ file: "lib/agent/server/agent-budgets.ts", from: "    if (bytes > before && total > this.budget) {", to: "    if (bytes > before && total > this.budget && false) {" }],
    tests: { files: ["test/lib/agent/agent-pending-frames-memory.test.ts"] },
  },
  {
    name: "fd-exhaustion-unnamed",
    guarantee: "It runs out of file descriptors",
    bug: "an agent out of file descriptors gives a generic error, not the line naming the limit",
    mutations: [{ file: "lib/agent/server/fd-exhaustion.ts", from: 'if (which !== "EMFILE") return null;', to: "return null;" }],
    tests: script("harden-small-errors.sh"),
  },
  {
    name: "fairness-no-turns",
    guarantee: "One client floods it",
    bug: "a connection's requests are served to the end before any other connection gets a turn",
    mutations: [{ file: "lib/agent/server/connection.ts", from: "if (turn >= REQUESTS_PER_TURN) {", to: "if (false && turn >= REQUESTS_PER_TURN) {" }],
    tests: { files: ["test/lib/agent/agent-fairness.test.ts"] },
  },
  {
    name: "long-state-dir-unchecked",
    guarantee: "a state dir too long for its sockets is one clear line",
    bug: "commands do not check the socket path's length (the kernel cuts it: a stray socket in a parent dir)",
    mutations: [{ file: "cli/shared/agent-reach.ts", from: "  checkSocketPath(socket);\n  return socket;", to: "  return socket;" }],
    tests: script("harden-long-state-dir-and-attach.sh"),
  },
  {
    name: "planted-agent-trusted",
    guarantee: "Someone else's agent answers on the socket",
    bug: "the listener's owner is not checked",
    mutations: [{
      file: "lib/agent/client/agent-trust.ts",
      from: "    if (holder === undefined) refuse(",
      to: "    if (holder === undefined) void (",
    }, {
      file: "lib/agent/client/agent-trust.ts",
      from: "    else if (holder.uid !== uid) refuse(",
      to: "    else if (holder.uid !== uid) void (",
    }],
    tests: { files: ["test/lib/agent/agent-trust.test.ts"] },
  },
];
