// Waiting on conditions with deadlines: the only way tests wait.

export interface WaitOptions {
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  readonly what?: string;
}

/** Polls `check` until it returns a value other than undefined/false. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Without a chosen interval: 20 ms at first, growing to 100 ms, so a
  // condition that is seconds away (a job, an agent) is not asked 50 times a
  // second; many checks ask the agent or start a program.
  let intervalMs = options.intervalMs ?? 20;
  const growTo = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? "a condition"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    intervalMs = Math.min(growTo, Math.ceil(intervalMs * 1.5));
  }
}
