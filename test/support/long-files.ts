// Which test files the suite starts first: the longest, so none of them
// starts last and runs alone (run-suite.ts).
import path from "node:path";

/**
 * The files that take longest (test/bench/file-costs.sh measures them),
 * longest first: run-files.ts starts files in the order given (`node --test`
 * would sort them by name), and a long file started last would leave the
 * other slot idle. Files not listed keep name order.
 */
export const LONG_FILES = [
  // 40 to 60 s each (the chaos run is 60 s by itself), the script shards
  // (each runs two scripts at once) between the three that keep a core
  // busy (chaos and the npm installs), so the first files started do not
  // fill the CPU alone; then 10 to 40 s. Started first, and while they wait
  // on programs, the short files fill the machine.
  "test/chaos/chaos.test.ts",
  "test/scripts/scripts-1.test.ts",
  "test/cli/install-git-dependency.test.ts",
  "test/scripts/scripts-2.test.ts",
  "test/cli/install.test.ts",
  "test/scripts/scripts-3.test.ts",
  "test/scripts/scripts-4.test.ts",
  "test/lib/pty/pty-queries.test.ts",
  "test/scripts/scripts-javascript-door.test.ts",
  "test/lib/pty/pty-session.test.ts",
  "test/cli/jobs/tty-jobs.test.ts",
  "test/cli/jobs/jobs-cli.test.ts",
  "test/docs-examples.test.ts",
  "test/cli/run/run-cli.test.ts",
  "test/cli/collect/collect-ci.test.ts",
  "test/lib/jobs/jobs-wait.test.ts",
  "test/lib/pty/pty-widths.test.ts",
  "test/cli/collect/collect-capture.test.ts",
  "test/lib/pty/pty-tmux.test.ts",
  "test/cli/jobs/reap-cli.test.ts",
  "test/cli/mcp/mcp-exec.test.ts",
  "test/cli/run/run-group-backend.test.ts",
  "test/cli/run/run-signals.test.ts",
  "test/cli/native-client/doors.test.ts",
  "test/lib/agent/agent-startup.test.ts",
  "test/cli/collect/collect-cli.test.ts",
  "test/lib/agent/agent-sessions.test.ts",
  "test/lib/agent/agent-programs.test.ts",
  "test/cli/hot-bundles.test.ts",
  "test/cli/mcp/mcp-run.test.ts",
  "test/cli/json-schemas.test.ts",
  "test/lib/native/install-build.test.ts",
  "test/lib/view/pty-view.test.ts",
  "test/lib/pty/pty-record.test.ts",
  "test/lib/supervise/supervise-handle.test.ts",
  "test/cli/mcp/mcp-tools.test.ts",
  "test/layering-house.test.ts",
  "test/cli/lazy-stdio.test.ts",
  "test/layering.test.ts",
];

export function longestFirst(files: readonly string[]): string[] {
  const rank = (file: string) => {
    const at = LONG_FILES.indexOf(file.split(path.sep).join("/"));
    return at < 0 ? LONG_FILES.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

