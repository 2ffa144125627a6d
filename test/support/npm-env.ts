// The environment the install tests give npm and an installed corral.

/** The caller's environment without npm's own variables (set when the suite runs under `npm test`) or corral's. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("npm_") || k.startsWith("CORRAL_") || k === "CC") continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
