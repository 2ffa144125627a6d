// `node:url` in Deno's hot bundles (deferred.ts says why): a hot command
// finds the guardian from its own module's file URL (lib/supervise/
// guardian/binary.ts), and node:url's first import costs Deno a few ms.
// A plain file URL is turned into its path here, as Node does on POSIX;
// anything Node would refuse or treat apart (another scheme, a host, an
// encoded slash, options) goes to the real node:url, for Node's own answer.
import { deferredBuiltin } from "./deferred.ts";

const realUrl = deferredBuiltin("node:url");

export function fileURLToPath(url: unknown, ...rest: unknown[]): string {
  const real = () => (realUrl().fileURLToPath as (...a: unknown[]) => string)(url, ...rest);
  if (rest.length > 0 || !(typeof url === "string" || url instanceof URL)) return real();
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return real();
  }
  if (parsed.protocol !== "file:" || parsed.hostname !== "" || /%2f/i.test(parsed.pathname)) return real();
  return decodeURIComponent(parsed.pathname);
}

/** What this file answers itself; the rest of node:url is deferred (cli/hot/build.mjs). */
export const ownUrl = { fileURLToPath };
