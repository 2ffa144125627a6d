// The agent protocol's version, checked at hello (DESIGN.md 4.6), and the
// one wording of a mismatch, which the agent sends and a client that sees a
// newer or older agent prints.

/** Checked at hello; bump this if any operation, reply or event of the table changes. */
export const PROTOCOL_VERSION = 6;

/** The one wording, used by the agent and by a client that sees a mismatch. */
export function versionMismatchMessage(agent: number, client: number): string {
  return `the running agent speaks protocol ${agent} and this corral speaks ${client}; restart it with: corral agent restart (its sessions and jobs keep running and are re-adopted)`;
}
