// The mutants of output: nothing lost at exit, spills byte-exact (full disk
// included), collect's bounded window and what it says about cuts, text,
// the files corral writes, and the lines and JSON it prints on failure.
import { type Mutant, script } from "./mutant.ts";

export const outputMutants: readonly Mutant[] = [
  {
    name: "exit-before-drain",
    guarantee: "Output before exit",
    bug: "the guardian reports a PTY child's exit as soon as it is reaped, before draining the master",
    mutations: [{ file: "native/loop.c", from: "      if (g->o->pty && g->s[1].fd >= 0) {\n        g->drain_deadline", to: "      if (0) {\n        g->drain_deadline" }],
    tests: { files: ["test/lib/pty/pty-exit-drain.test.ts"], namePattern: "guardian" },
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
    name: "full-disk-tail-dropped",
    guarantee: "A spill on a full disk",
    bug: "once the spill file has filled the disk, collect's capture drops what comes instead of keeping it as the tail",
    mutations: [{ file: "native/capture.c", from: "      if (c->ring != NULL) {\n        ring_put(c, into, n);\n", to: "      if (c->ring != NULL) {\n" }],
    tests: script("collect-spill-full-disk.sh"),
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
  {
    name: "error-line-unescaped",
    guarantee: "It sends bad values",
    bug: "values in an error line are printed raw: a newline in a path splits the line",
    mutations: [{ file: "cli/shared/error-line.ts", from: "return `corral: ${oneLine(message)}\\n`;", to: "return `corral: ${message}\\n`;" }],
    tests: script("harden-small-errors.sh"),
  },
];
