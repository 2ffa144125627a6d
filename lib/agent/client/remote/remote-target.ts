// Where a command's agent is when it is not on this machine: another
// machine reached over OpenSSH (`--host [user@]machine[:path-to-corral]`,
// $CORRAL_HOST, or a `hosts:` alias of the config file), or any command
// that gives a stdio to a remote `corral connect` (`--via`, e.g.
// `kubectl exec -i pod -- corral connect`). corral adds no network layer of
// its own: the transport is one the user already trusts and authenticates.

/** A remote agent's door: how to start the process whose stdio reaches it. */
export type RemoteTarget =
  | { readonly kind: "ssh"; readonly destination: string; readonly corral: string; readonly shown: string }
  | { readonly kind: "via"; readonly command: string; readonly shown: string };

/** A value of --host or --via that cannot be used; the message says what would be right. */
export class RemoteSpecError extends Error {
  override readonly name = "RemoteSpecError";
}

/** What the caller asked for: flags first, then the environment. */
export interface RemoteWish {
  readonly host?: string | undefined;
  readonly via?: string | undefined;
}

/**
 * The remote target of a command, or null for this machine's agent.
 * `aliases` are the config file's `hosts:` (name -> host spec).
 */
export function remoteTarget(
  wish: RemoteWish,
  env: Readonly<Record<string, string | undefined>>,
  aliases: Readonly<Record<string, string>> = {},
): RemoteTarget | null {
  if (wish.host !== undefined && wish.via !== undefined) {
    throw new RemoteSpecError("--host and --via both say where the agent is; give one");
  }
  if (wish.via !== undefined) return viaTarget(wish.via);
  const host = wish.host ?? nonEmpty(env.CORRAL_HOST);
  if (host === undefined) return null;
  return hostTarget(Object.hasOwn(aliases, host) ? aliases[host] ?? host : host, host);
}

/** `[user@]machine[:path-to-corral]`; the path defaults to `corral` on the remote PATH. */
export function hostTarget(spec: string, shown = spec): RemoteTarget {
  const text = spec.trim();
  const at = text.lastIndexOf("@");
  const colon = text.indexOf(":", at + 1);
  const destination = colon < 0 ? text : text.slice(0, colon);
  const corral = colon < 0 ? "corral" : text.slice(colon + 1);
  const machine = destination.slice(at + 1);
  if (machine === "" || /\s/.test(destination) || destination.startsWith("-")) {
    throw new RemoteSpecError(`--host ${JSON.stringify(spec)}: give [user@]machine[:path-to-corral], e.g. --host ci@testbox or --host testbox:/opt/corral/bin/corral`);
  }
  if (corral === "") {
    throw new RemoteSpecError(`--host ${JSON.stringify(spec)}: nothing after ":"; give the remote corral's path, e.g. ${destination}:/usr/local/bin/corral, or leave ":" out`);
  }
  return { kind: "ssh", destination, corral, shown };
}

function viaTarget(command: string): RemoteTarget {
  if (command.trim() === "") {
    throw new RemoteSpecError("--via needs a command that gives a stdio to a remote corral connect, e.g. --via 'docker exec -i box corral connect'");
  }
  return { kind: "via", command, shown: command };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
