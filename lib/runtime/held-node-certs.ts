// Node 20 reads and parses $NODE_EXTRA_CA_CERTS at every start: 60-80 ms of CPU
// on a 2-core machine with Debian's bundle, twice a bare `node -e 0`, and a
// warning at exit when the file is missing. corral makes no TLS connection,
// so its own runtime starts without it: the native client moves it aside
// before it hands a command line to the JavaScript CLI
// (native/client/hand-over.c), and the CLI puts it back first thing, so
// every program corral starts sees the caller's environment unchanged. The
// agent, whose environment no session sees, starts without it at all
// (agent-environment.ts).

/** Where the native client keeps the caller's $NODE_EXTRA_CA_CERTS across the hand-over. */
export const HELD_NODE_CERTS = "CORRAL_HELD_NODE_EXTRA_CA_CERTS";

/** Puts back the caller's $NODE_EXTRA_CA_CERTS that the native client held. */
export function restoreHeldNodeCerts(env: Record<string, string | undefined>): void {
  if (env[HELD_NODE_CERTS] === undefined) return;
  // Back in its place (the native client renamed it where it stood): a program that prints its
  // environment sees the caller's order. An assignment would append it, so every entry is set again.
  const entries = Object.entries(env);
  for (const [name] of entries) delete env[name];
  for (const [name, value] of entries) env[name === HELD_NODE_CERTS ? "NODE_EXTRA_CA_CERTS" : name] = value;
}
