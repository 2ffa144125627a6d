// Which shard file (scripts-N.test.ts) runs which user script, in what order,
// and how many of a shard's scripts run at once. Name order left one shard
// with the two longest scripts (guardian-fault-injection.sh, about 40 s of
// strace and timeouts, and state-dir-removed.sh, about 30 s outwaiting the
// agent's and the guardian's bounds) and the suite waiting on it; most
// scripts spend most of their time waiting on programs, so a shard runs
// SCRIPTS_AT_ONCE of them side by side (each has its own state dir, scratch
// dir, tmux socket and ports, as every test file shares the machine).

/** How many shard files (scripts-1.test.ts ... scripts-N.test.ts) share the scripts. */
export const SCRIPT_SHARDS = 4;

/** Scripts a shard runs at once. */
export const SCRIPTS_AT_ONCE = 2;

/**
 * Seconds the longer scripts took in a clean-clone CI run (through the bin;
 * `CORRALTEST_SCRIPT=name.sh test/bench/file-costs.sh test/scripts/scripts-[1-4].test.ts`
 * measures one: its shard's row). Only
 * the balance of the shards rests on them: a script not named counts
 * DEFAULT_SECONDS, and a wrong figure makes a shard longer, never a check weaker.
 */
const SECONDS: Readonly<Record<string, number>> = {
  "guardian-fault-injection.sh": 39,
  "state-dir-removed.sh": 28,
  "remote-ssh.sh": 18,
  "mcp-inspector-cli.sh": 13,
  "exec-fish.sh": 11,
  "exec-zsh.sh": 10,
  "surprises-decisions.sh": 10,
  "agent-orphan-wait.sh": 10,
  "collect-lines-kept-by-guardian.sh": 6,
  "exec-bash.sh": 9,
  "job-end-survives-agent-kill.sh": 7,
  "exec-dash.sh": 7,
  "scripting-burst-marker.sh": 6,
  "harden-jobs-after-agent-killed.sh": 6,
  "guardian-cannot-serve-pty.sh": 6,
  "remote-ssh-attach.sh": 5,
  "collect-live-tee.sh": 5,
  "surprises-small-ones.sh": 5,
  "scripting-wait-ready.sh": 5,
  "harden-small-errors.sh": 5,
  "exec-project-setup.sh": 4,
  "agent-restart-newer-protocol.sh": 4,
  "agent-flood-while-unowned.sh": 4,
  "guardian-setting-everywhere.sh": 4,
  "ci-tty-live-group-heartbeat.sh": 4,
  "agent-readopt-after-sigkill.sh": 4,
  "scripting-two-patterns.sh": 4,
  "surprises-open-wait.sh": 4,
  "ci-heartbeat.sh": 4,
};
const DEFAULT_SECONDS = 2;

/** The scripts, longest first (then by name). */
export function longestFirst(names: readonly string[]): string[] {
  const cost = (name: string) => SECONDS[name] ?? DEFAULT_SECONDS;
  return [...names].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every script in exactly one shard: longest first, each to the shard with
 * the least time so far (the lowest-numbered on a tie). Each shard's list is
 * longest first, the order it runs them in.
 */
export function shardsOf(names: readonly string[]): string[][] {
  const shards: string[][] = Array.from({ length: SCRIPT_SHARDS }, () => []);
  const load = new Array<number>(SCRIPT_SHARDS).fill(0);
  for (const name of longestFirst(names)) {
    const least = load.indexOf(Math.min(...load));
    shards[least]!.push(name);
    load[least]! += SECONDS[name] ?? DEFAULT_SECONDS;
  }
  return shards;
}

/** Runs `each` on every item, at most `limit` at once, in order; the results in the same order (each settled, never rejecting). */
export function inPool<T, R>(items: readonly T[], limit: number, each: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>>[] {
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
  };
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  return items.map(async (item) => {
    await slot();
    try {
      return { status: "fulfilled", value: await each(item) } as const;
    } catch (reason) {
      return { status: "rejected", reason } as const;
    } finally {
      release();
    }
  });
}
