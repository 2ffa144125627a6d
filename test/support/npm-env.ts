// The environment the install tests give npm and an installed corral.
import { HELD_NODE_CERTS } from "./suite-environment.ts";

/** The caller's environment without npm's own variables (set when the suite runs under `npm test`) or corral's. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  // npm may need the certificates the suite held aside (suite-environment.ts) to reach its registry.
  const certs = process.env[HELD_NODE_CERTS];
  if (certs !== undefined) env.NODE_EXTRA_CA_CERTS = certs;
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("npm_") || k.startsWith("CORRAL_") || k === "CC") continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
