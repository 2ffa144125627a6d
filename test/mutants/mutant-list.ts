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

export interface Mutant {
  readonly name: string;
  /** The promise, in the docs' words. */
  readonly guarantee: string;
  /** What the planted bug does. */
  readonly bug: string;
  readonly mutations: readonly Mutation[];
  readonly tests: MutantTests;
  /** Seconds the tests may run with the mutant before the run counts as a hang (caught, but slow); default 300. */
  readonly deadlineS?: number;
}

/** A user-shaped script test (test/scripts/NAME), run through its shard files. */
const script = (name: string): MutantTests => ({
  files: ["test/scripts/scripts-1.test.ts", "test/scripts/scripts-2.test.ts", "test/scripts/scripts-3.test.ts", "test/scripts/scripts-4.test.ts"],
  env: { CORRALTEST_SCRIPT: name },
});

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
    guarantee: "no PTY output lost at exit",
    bug: "the guardian reports a PTY child's exit as soon as it is reaped, before draining the master",
    mutations: [{ file: "native/loop.c", from: "      if (g->o->pty && g->s[1].fd >= 0) {\n        g->drain_deadline", to: "      if (0) {\n        g->drain_deadline" }],
    tests: { files: ["test/lib/pty/pty-exit-drain.test.ts"], namePattern: "guardian" },
  },
  {
    name: "escapee-not-in-census",
    guarantee: "escapees killed (setsid, double fork)",
    bug: "the census forgets the orphans the guardian adopted as subreaper",
    mutations: [{ file: "native/census.c", from: "(sid > 0 && sid != self_sid && x->sid == sid) ||\n            x->ppid == self;", to: "(sid > 0 && sid != self_sid && x->sid == sid);" }],
    tests: { files: ["test/lib/native/guardian-terminate.test.ts"], namePattern: "escapee|setsid orphan" },
  },
  {
    name: "terminate-no-sigkill",
    guarantee: "timeout kills the tree",
    bug: "after the grace the guardian freezes what is left but never sends SIGKILL (a tree ignoring SIGTERM survives)",
    mutations: [{ file: "native/terminate.c", from: "  census_signal(cs, SIGKILL);\n", to: "" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "ignoring SIGTERM" },
    deadlineS: 180,
  },
  {
    name: "timeout-no-kill",
    guarantee: "timeout kills the tree",
    bug: "the timeout is recorded but the tree is not terminated",
    mutations: [{ file: "lib/supervise/timeout.ts", from: "    timedOut();\n    terminate();\n", to: "    timedOut();\n" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "run --timeout" },
    deadlineS: 120,
  },
  {
    name: "spill-drops-bytes",
    guarantee: "spill byte-exact",
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
    guarantee: "spill byte-exact",
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
    guarantee: "spill byte-exact",
    bug: "the agent's spill writer (jobs, the client's own collect) drops the first byte of each chunk it queues",
    mutations: [
      { file: "lib/output/spill-file.ts", from: "    this.#queue.push(chunk);\n", to: "    this.#queue.push(chunk.subarray(1));\n" },
      { file: "lib/output/spill-file.ts", from: "        this.#queue.push(slab.buf.subarray(start, start + n));\n", to: "        this.#queue.push(slab.buf.subarray(start + 1, start + n));\n" },
    ],
    tests: { files: ["test/lib/output/output-spill.test.ts", "test/cli/jobs/jobs-cli.test.ts"], namePattern: "spill" },
  },
  {
    name: "window-head-short",
    guarantee: "collect keeps the first --head-bytes bytes and the last --max-bytes",
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
    guarantee: "many idle sessions fit in one agent (the screen budget charges what screens hold)",
    bug: "every session is charged its whole possible scrollback, cols x (rows + scrollback), as before",
    mutations: [{ file: "lib/agent/server/session-registry.ts", from: "      const held = entry.session.cellsHeld?.();", to: "      const held = undefined as number | undefined;" }],
    tests: script("pty-many-idle-sessions.sh"),
  },
  {
    name: "frame-budget-unchecked",
    guarantee: "the agent's memory is bounded (unfinished request frames)",
    bug: "the agent-wide budget on unfinished frames is never enforced",
    mutations: [{ file: "lib/agent/server/agent-budgets.ts", from: "    if (bytes > before && total > this.budget) {", to: "    if (bytes > before && total > this.budget && false) {" }],
    tests: { files: ["test/lib/agent/agent-pending-frames-memory.test.ts"] },
  },
  {
    name: "long-state-dir-unchecked",
    guarantee: "bad input is one clear line: a state dir too long for its sockets",
    bug: "commands do not check the socket path's length (the kernel cuts it: a stray socket in a parent dir)",
    mutations: [{ file: "cli/shared/agent-reach.ts", from: "  checkSocketPath(socket);\n  return socket;", to: "  return socket;" }],
    tests: script("harden-long-state-dir-and-attach.sh"),
  },
  {
    name: "planted-agent-trusted",
    guarantee: "an agent planted by another user is refused",
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
    guarantee: "credentials never reach the child",
    bug: "the *TOKEN* pattern is gone from the scrub list",
    mutations: [{ file: "lib/env/patterns.ts", from: '  "*TOKEN*",\n', to: "" }],
    tests: { files: ["test/lib/env/env-scrub.test.ts"] },
  },
  {
    name: "signal-status-off-by-one",
    guarantee: "exit status mirrors the child (128+N for signal N)",
    bug: "a child killed by signal N is reported as 127+N",
    mutations: [{ file: "lib/core/exit-status.ts", from: "  return 128 + n;", to: "  return 127 + n;" }],
    tests: { files: ["test/cli/run/run-cli.test.ts"], namePattern: "mirrors exit codes" },
  },
];
