// The planted bugs `npm run mutants` tries: for each guarantee the docs make
// (docs/mutants.md), one or more small edits that break it, and the test
// files that must then fail. A guarantee whose mutant no test catches is a
// guarantee nothing checks. Each edit replaces text that must occur exactly
// once in its file, so a mutant whose code moved is reported, not skipped.

/** One edit: `from` (found exactly once in `file`) becomes `to`. */
export interface Mutation {
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

/** Test files to run (from the repository root), with an optional name pattern and environment. */
export interface MutantTests {
  readonly files: readonly string[];
  /** Passed as --test-name-pattern: only the tests that check this guarantee. */
  readonly namePattern?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A promise the docs make: its label (for a promise of docs/guarantees.md,
 * the bold lead of its paragraph, or its heading) and the page and anchor
 * that make it. docs/guarantees.md links each to its mutants.
 */
export interface Guarantee {
  readonly label: string;
  /** Page#anchor under docs/. */
  readonly promised: string;
}

export interface Mutant {
  readonly name: string;
  /** The label of the guarantee (in `guarantees`) it breaks. */
  readonly guarantee: string;
  /** Other guarantees the same bug breaks. */
  readonly also?: readonly string[];
  /** What the planted bug does. */
  readonly bug: string;
  readonly mutations: readonly Mutation[];
  readonly tests: MutantTests;
  /** Seconds the tests may run with the mutant before the run counts as a hang (caught, but slow); default 300. */
  readonly deadlineS?: number;
}

const SHARDS = ["test/scripts/scripts-1.test.ts", "test/scripts/scripts-2.test.ts", "test/scripts/scripts-3.test.ts", "test/scripts/scripts-4.test.ts"];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A user-shaped script test (test/scripts/NAME), run through its shard files:
 * only that script (CORRALTEST_SCRIPT), and only its own test (a shard also
 * runs a few scripts through the JavaScript CLI whatever it is told).
 */
const script = (name: string): MutantTests => ({
  files: SHARDS,
  namePattern: `^script ${escaped(name)}$`,
  env: { CORRALTEST_SCRIPT: name },
});

const G = "guarantees.md";
/** Every promise a mutant stands for, in the order docs/mutants.md gives them. */
export const guarantees: readonly Guarantee[] = [
  { label: "The whole tree", promised: `${G}#nothing-left-running` },
  { label: "A census, not a guess", promised: `${G}#nothing-left-running` },
  { label: "Said, not silent", promised: `${G}#nothing-left-running` },
  { label: "A receipt", promised: `${G}#nothing-left-running` },
  { label: "Lifeline", promised: `${G}#nothing-left-running` },
  { label: "Hygiene", promised: `${G}#nothing-left-running` },
  { label: "Output before exit", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Bounded memory", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Cuts are said", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Byte-exact files", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Text", promised: `${G}#nothing-lost-memory-bounded` },
  { label: "Signals to corral", promised: `${G}#exit-facts` },
  { label: "Where `--facts` goes", promised: `${G}#exit-facts` },
  { label: "Secrets stay out", promised: `${G}#secrets-stay-out` },
  { label: "sessions", promised: `${G}#what-survives-what` },
  { label: "jobs", promised: `${G}#what-survives-what` },
  { label: "programs that exited", promised: `${G}#what-survives-what` },
  { label: "Without the guardian", promised: `${G}#without-the-guardian` },
  { label: "It dies", promised: `${G}#the-guardian` },
  { label: "It stops answering", promised: `${G}#the-guardian` },
  { label: "A system call fails in it", promised: `${G}#the-guardian` },
  { label: "A spill on a full disk", promised: `${G}#the-disk` },
  { label: "A spill file that cannot be created", promised: `${G}#the-disk` },
  { label: "It is killed (the agent)", promised: `${G}#the-agent` },
  { label: "It runs out of file descriptors", promised: `${G}#the-agent` },
  { label: "Memory budgets", promised: `${G}#the-agent` },
  { label: "One client floods it", promised: `${G}#the-agent` },
  { label: "Someone else's agent answers on the socket", promised: `${G}#the-client` },
  { label: "It is killed (the client)", promised: `${G}#the-client` },
  { label: "It sends bad values", promised: `${G}#the-client` },
  { label: "Exit statuses", promised: `${G}#exit-statuses` },
  { label: "`--json` on failure", promised: `${G}#exit-statuses` },
  { label: "keys reach the program", promised: "terminals.md#keys" },
  { label: "TERM is set (xterm-256color unless --term)", promised: "terminals.md#what-a-session-gets" },
  { label: "send-then-wait never races (--after)", promised: "scripting.md#output-positions" },
  { label: "the screen is what tmux shows (terminal fidelity)", promised: "terminals.md#fidelity" },
  { label: "a state dir too long for its sockets is one clear line", promised: "agent.md#the-state-dir" },
];

export const mutants: readonly Mutant[] = [
  {
    name: "keys-send-nothing",
    guarantee: "keys reach the program",
    bug: "sendKeys writes only the typed text, not the keys' bytes",
    mutations: [{ file: "lib/pty/session.ts", from: "    this.#handle.write(bytes);\n", to: "    this.#handle.write(typed);\n" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "named keys" },
  },
  {
    name: "keys-up-as-backtab",
    guarantee: "keys reach the program",
    bug: "Up is sent as ESC [ Z (back-tab) instead of ESC [ A",
    mutations: [{ file: "lib/pty/keys.ts", from: 'up: "A",', to: 'up: "Z",' }],
    tests: { files: ["test/lib/pty/pty-programs.test.ts"], namePattern: "python3 REPL" },
  },
  {
    name: "keys-no-application-cursor",
    guarantee: "keys reach the program",
    bug: "cursor keys ignore the application-cursor mode the program set",
    mutations: [{ file: "lib/pty/session.ts", from: "      if (this.#screen.applicationCursor) encoded = application;", to: "      if (this.#screen.applicationCursor && false) encoded = application;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "named keys" },
  },
  {
    name: "term-forced-dumb",
    guarantee: "TERM is set (xterm-256color unless --term)",
    bug: "every session gets TERM=dumb",
    mutations: [{ file: "lib/pty/session-spec.ts", from: "env.TERM = spec.term ?? DEFAULT_TERM;", to: 'env.TERM = "dumb";' }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "TERM defaults" },
  },
  {
    name: "term-caller-env-wins",
    guarantee: "TERM is set (xterm-256color unless --term)",
    bug: "the caller's TERM wins over the default",
    mutations: [{ file: "lib/pty/session-spec.ts", from: "env.TERM = spec.term ?? DEFAULT_TERM;", to: "env.TERM = spec.term ?? env.TERM ?? DEFAULT_TERM;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts"], namePattern: "TERM defaults" },
  },
  {
    name: "wait-after-ignored",
    guarantee: "send-then-wait never races (--after)",
    bug: "a wait looks from the position when it began, not from --after",
    mutations: [{ file: "lib/pty/session-wait.ts", from: "const from = cond.after ?? stream.position;", to: "const from = stream.position;" }],
    tests: { files: ["test/lib/pty/pty-session.test.ts", "test/lib/pty/pty-wait-stream.test.ts"], namePattern: "after|wait:|burst" },
  },
  {
    name: "exit-before-drain",
    guarantee: "Output before exit",
    bug: "the guardian reports a PTY child's exit as soon as it is reaped, before draining the master",
    mutations: [{ file: "native/loop.c", from: "      if (g->o->pty && g->s[1].fd >= 0) {\n        g->drain_deadline", to: "      if (0) {\n        g->drain_deadline" }],
    tests: { files: ["test/lib/pty/pty-exit-drain.test.ts"], namePattern: "guardian" },
  },
  {
    name: "escapee-not-in-census",
    guarantee: "A census, not a guess",
    bug: "the census forgets the orphans the guardian adopted as subreaper",
    mutations: [{ file: "native/census.c", from: "(sid > 0 && sid != self_sid && x->sid == sid) ||\n            x->ppid == self;", to: "(sid > 0 && sid != self_sid && x->sid == sid);" }],
    tests: { files: ["test/lib/native/guardian-terminate.test.ts"], namePattern: "escapee|setsid orphan" },
  },
  {
    name: "terminate-no-sigkill",
    guarantee: "The whole tree",
    bug: "after the grace the guardian freezes what is left but never sends SIGKILL (a tree ignoring SIGTERM survives)",
    mutations: [{ file: "native/terminate.c", from: "  census_signal(cs, SIGKILL);\n", to: "" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "ignoring SIGTERM" },
    deadlineS: 180,
  },
  {
    name: "timeout-no-kill",
    guarantee: "The whole tree",
    bug: "the timeout is recorded but the tree is not terminated",
    mutations: [{ file: "lib/supervise/timeout.ts", from: "    timedOut();\n    terminate();\n", to: "    timedOut();\n" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "run --timeout" },
    deadlineS: 120,
  },
  {
    name: "spill-drops-bytes",
    guarantee: "Byte-exact files",
    bug: "the guardian's spill write drops the last byte of each chunk over 4 KiB",
    mutations: [{
      file: "native/streams.c",
      from: "    ssize_t w = write(s->spill_fd, p, n);\n",
      to: "    ssize_t w = write(s->spill_fd, p, n > 4096 ? n - 1 : n);\n    if (w > 0 && n > 4096) w = (ssize_t)n;\n",
    }],
    tests: { files: ["test/cli/collect/collect-cli.test.ts"], namePattern: "spill" },
  },
  {
    name: "collect-spill-first-read-lost",
    guarantee: "Byte-exact files",
    bug: "collect's spill (the guardian's capture) misses the first chunk it read",
    mutations: [{
      file: "native/capture.c",
      from: "        stream_spill_write(g, s, into, n);\n        if (s->spill_failed) spill_failed_now",
      to: "        if (s->total > n) stream_spill_write(g, s, into, n);\n        if (s->spill_failed) spill_failed_now",
    }],
    tests: { files: ["test/cli/collect/collect-cli.test.ts"], namePattern: "spill" },
  },
  {
    name: "agent-spill-drops-bytes",
    guarantee: "Byte-exact files",
    bug: "the agent's spill writer (jobs, the client's own collect) drops the first byte of each chunk it queues",
    mutations: [
      { file: "lib/output/spill-file.ts", from: "    this.#queue.push(chunk);\n", to: "    this.#queue.push(chunk.subarray(1));\n" },
      { file: "lib/output/spill-file.ts", from: "        this.#queue.push(slab.buf.subarray(start, start + n));\n", to: "        this.#queue.push(slab.buf.subarray(start + 1, start + n));\n" },
    ],
    tests: { files: ["test/lib/output/output-spill.test.ts", "test/cli/jobs/jobs-cli.test.ts"], namePattern: "spill" },
  },
  {
    name: "window-head-short",
    guarantee: "Bounded memory",
    bug: "the retained window keeps one byte less of head than asked (and says so in its own headBytes)",
    mutations: [{ file: "lib/output/retained-window.ts", from: "    this.headBytes = headBytes;", to: "    this.headBytes = Math.max(0, headBytes - 1);" }],
    tests: { files: ["test/lib/output/output-window.test.ts"] },
  },
  {
    name: "decrc-row-moves-with-scrollback",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "DECSC/DECRC is left to xterm.js, whose restored row moves up with each line scrolled away",
    mutations: [{ file: "lib/pty/screen-emulator.ts", from: "    restoreSavedCursorRow(term);\n", to: "" }],
    tests: { files: ["test/lib/pty/pty-saved-cursor-marks.test.ts"], namePattern: "scrolled away" },
  },
  {
    name: "mark-loses-its-empty-cell",
    guarantee: "the screen is what tmux shows (terminal fidelity)",
    bug: "a combining mark in a never-written cell is shown without that cell's space",
    mutations: [{ file: "lib/pty/line-text.ts", from: "  if (!MARK.test(fast)) return fast;", to: "  return fast;" }],
    tests: { files: ["test/lib/pty/pty-saved-cursor-marks.test.ts"], namePattern: "combining" },
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
  {
    name: "scrub-keeps-tokens",
    guarantee: "Secrets stay out",
    bug: "the *TOKEN* pattern is gone from the scrub list",
    mutations: [{ file: "lib/env/patterns.ts", from: '  "*TOKEN*",\n', to: "" }],
    tests: { files: ["test/lib/env/env-scrub.test.ts"] },
  },
  {
    name: "signal-status-off-by-one",
    guarantee: "Exit statuses",
    bug: "a child killed by signal N is reported as 127+N",
    mutations: [{ file: "lib/core/exit-status.ts", from: "  return 128 + n;", to: "  return 127 + n;" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "mirrors exit codes" },
  },
  {
    name: "not-found-as-126",
    guarantee: "Exit statuses",
    bug: "a command that is not found exits 126, as one that is not executable",
    mutations: [{ file: "lib/core/exit-status.ts", from: "  notFound: 127,", to: "  notFound: 126," }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "127 not found" },
  },
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
    mutations: [{
      file: "lib/jobs/start-job.ts",
      from: 'const spillByGuardian = request.spill !== null && choice.supervisor === "guardian";',
      to: 'const spillByGuardian = request.spill !== null && choice.supervisor === "guardian" && false;',
    }],
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
    name: "leftovers-left-running",
    guarantee: "The whole tree",
    bug: "--leave-running is the default: what the command left running is not terminated when it exits",
    mutations: [{ file: "cli/shared/child/flags.ts", from: 'leaveRunning: { kind: "boolean", default: false,', to: 'leaveRunning: { kind: "boolean", default: true,' }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "terminating what it left behind" },
  },
  {
    name: "timeout-line-silent",
    guarantee: "Said, not silent",
    bug: "a timeout is recorded in the facts but not said on stderr",
    mutations: [{ file: "cli/shared/child/decision-lines.ts", from: "lines.push(`corral: timed out${after}; SIGTERM to ${whom}, ${ended}\\n`);", to: "" }],
    tests: script("surprises-decisions.sh"),
  },
  {
    name: "receipt-never-confirmed",
    guarantee: "A receipt",
    bug: "the guardian misreads its count of live members: a receipt is never confirmed, even for a tree that is gone",
    mutations: [{ file: "native/terminate.c", from: "int confirmed = live == 0 && cs->proc_ok && !cs->overflow;", to: "int confirmed = live < 0 && cs->proc_ok && !cs->overflow;" }],
    tests: { files: ["test/lib/native/guardian-terminate.test.ts"], namePattern: "receipt confirmed|empty tree" },
  },
  {
    name: "lifeline-cut",
    guarantee: "Lifeline",
    also: ["It is killed (the client)"],
    bug: "a guardian whose owner is gone keeps the tree running",
    mutations: [{ file: "native/owner.c", from: "  if (orphan_lost(g)) return;\n", to: "  if (orphan_lost(g)) return;\n  return;\n" }],
    tests: {
      files: ["test/lib/native/guardian-lifeline.test.ts", "test/lib/native/guardian-terminate.test.ts", ...SHARDS],
      namePattern: "lifeline|owner is SIGKILLed|^script harden-run-sigkill-tmpdir\\.sh$",
      env: { CORRALTEST_SCRIPT: "harden-run-sigkill-tmpdir.sh" },
    },
  },
  {
    name: "hygiene-signals-inherited",
    guarantee: "Hygiene",
    bug: "the child keeps the signal dispositions of the guardian (SIGPIPE, SIGINT, SIGQUIT ... ignored)",
    mutations: [{ file: "native/child.c", from: "    sigaction(s, &sa, NULL);\n", to: "" }],
    tests: script("run-child-hygiene.sh"),
  },
  {
    name: "hygiene-descriptor-leak",
    guarantee: "Hygiene",
    bug: "the guardian's signal pipe is not close-on-exec: the child inherits two descriptors",
    mutations: [{ file: "native/loop.c", from: "    fcntl(g->sig_pipe[i], F_SETFD, FD_CLOEXEC);\n", to: "" }],
    tests: script("run-child-hygiene.sh"),
  },
  {
    name: "marker-line-dropped",
    guarantee: "Cuts are said",
    bug: "collect's plain output leaves the marker line out between head and tail",
    mutations: [{ file: "cli/commands/collect/report.ts", from: 'return { stream: [head, marker, tail], note: "" };', to: 'return { stream: [head, tail], note: "" };' }],
    tests: { files: ["test/cli/collect/collect-cli.test.ts"], namePattern: "head/tail at the edge" },
  },
  {
    name: "utf8-orphans-shown",
    guarantee: "Text",
    bug: "the continuation bytes at the start of a tail (a character cut by the limit) are shown as U+FFFD",
    mutations: [{ file: "lib/output/utf8-text.ts", from: "while (skip < MAX_ORPHANS &&", to: "while (false && skip < MAX_ORPHANS &&" }],
    tests: { files: ["test/cli/collect/collect-cli.test.ts"], namePattern: "UTF-8" },
  },
  {
    name: "signal-death-exits-instead",
    guarantee: "Signals to corral",
    bug: "corral exits with a status after a forwarded signal killed the command, instead of dying of it",
    mutations: [{
      file: "cli/shared/signal-death.ts",
      from: 'if (end.signal === forwarded || (end.signal === "SIGKILL" && end.forced)) context.process.dieOf = forwarded;',
      to: 'if (false) context.process.dieOf = forwarded;',
    }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "sent to corral" },
  },
  {
    name: "facts-through-symlink",
    guarantee: "Where `--facts` goes",
    bug: "a symbolic link given as --facts is not refused up front",
    mutations: [{ file: "cli/shared/facts-output.ts", from: '  if (target.kind === "symlink") {', to: '  if (target.kind === "symlink" && false) {' }],
    tests: { files: ["test/cli/run/facts-env-cli.test.ts"], namePattern: "symlink" },
  },
  {
    name: "spill-bad-path-not-usage",
    guarantee: "A spill file that cannot be created",
    bug: "a spill file that cannot be created is corral's failure (125), not a usage error (2)",
    mutations: [{ file: "cli/commands/collect/stores.ts", from: "if (error instanceof SpillError) throw new UsageError(`--spill: ${error.message}`);", to: "" }],
    tests: { files: ["test/cli/run/facts-env-cli.test.ts"], namePattern: "symlink" },
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
    name: "probe-degraded-says-ok",
    guarantee: "Without the guardian",
    bug: "probe exits 0 (every guarantee holds) when corral runs on the fallbacks",
    mutations: [{ file: "cli/commands/probe/impl.ts", from: "export const ProbeStatus = { ok: 0, unusable: 1, degraded: 3 } as const;", to: "export const ProbeStatus = { ok: 0, unusable: 1, degraded: 0 } as const;" }],
    tests: script("probe-degraded.sh"),
  },
  {
    name: "supervisor-lost-silent",
    guarantee: "It dies",
    bug: "a guardian that died is not said on stderr",
    mutations: [{ file: "cli/shared/child/supervise.ts", from: "    if (lost !== undefined) {", to: "    if (lost !== undefined && false) {" }],
    tests: script("guardian-lost.sh"),
  },
  {
    name: "stuck-guardian-waited-for",
    guarantee: "It stops answering",
    bug: "corral waits for ever (hours) for a guardian that does not answer a terminate",
    mutations: [{ file: "lib/supervise/guardian/pipe-backend.ts", from: "const UNANSWERED_MARGIN_MS = 10_000;", to: "const UNANSWERED_MARGIN_MS = 10_000_000;" }],
    tests: script("guardian-stops-answering.sh"),
    deadlineS: 240,
  },
  {
    name: "pidfd-refused-no-fallback",
    guarantee: "A system call fails in it",
    bug: "when pidfd_send_signal is refused the guardian does not fall back to kill(2)",
    mutations: [{ file: "native/census.c", from: "rc = member_gone(m) ? 0 : kill(m->pid, sig);", to: "rc = 0;" }],
    tests: script("guardian-fault-injection.sh"),
  },
  {
    name: "full-disk-tail-dropped",
    guarantee: "A spill on a full disk",
    bug: "after the spill file fills the disk, the guardian drops the bytes instead of keeping them as the tail",
    mutations: [{ file: "native/streams.c", from: "if (s->spill_failed) { ring_add(g, s, p, n); return; }", to: "if (s->spill_failed) return;" }],
    tests: script("collect-spill-full-disk.sh"),
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
    name: "error-line-unescaped",
    guarantee: "It sends bad values",
    bug: "values in an error line are printed raw: a newline in a path splits the line",
    mutations: [{ file: "cli/shared/error-line.ts", from: "return `corral: ${oneLine(message)}\\n`;", to: "return `corral: ${message}\\n`;" }],
    tests: script("harden-small-errors.sh"),
  },
  {
    name: "json-failure-silent",
    guarantee: "`--json` on failure",
    bug: "a --json command that fails prints nothing on stdout",
    mutations: [{
      file: "cli/shared/json-failure.ts",
      from: "if (status === ExitStatus.ok || wroteStdout || corralProcess.jsonElsewhere === true) return;",
      to: "return;",
    }],
    tests: script("surprises-json-errors.sh"),
  },
];
