// `node:path` in Deno's hot bundles (deferred.ts says why): the first
// `node:` module a Deno program imports costs about 5 ms (Deno's Node layer
// starts), and `run` and `collect` touch node:path only for a few POSIX
// joins and resolves (the config file, the guardian's location, the
// program on $PATH, the owner socket). Those are answered here by POSIX's
// rules, as Node's path.posix gives them; anything else (relative, parse,
// format, win32, ...) is the real node:path, loaded then. Only on POSIX
// systems: under Windows nothing is answered here.
import { deferredBuiltin } from "./deferred.ts";

/** What this file uses of Deno's API (no Deno types in this project). */
interface DenoPathApi {
  readonly build: { readonly os: string };
  cwd(): string;
}

const deno = (globalThis as unknown as { readonly Deno: DenoPathApi }).Deno;
const realPath = deferredBuiltin("node:path");

/** Node refuses a path argument that is not a string with this TypeError; so does the real module. */
function strings(args: readonly unknown[]): args is readonly string[] {
  return args.every((arg) => typeof arg === "string");
}

/**
 * Collapses `.`, `..` and repeated slashes in a path without its leading
 * slash handled: the segments of `text` resolved against each other. A
 * `..` above the start is kept only when the path is relative.
 */
function collapse(text: string, absolute: boolean): string {
  const kept: string[] = [];
  for (const segment of text.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (kept.length > 0 && kept[kept.length - 1] !== "..") kept.pop();
      else if (!absolute) kept.push("..");
      continue;
    }
    kept.push(segment);
  }
  return kept.join("/");
}

function normalize(...args: unknown[]): string {
  if (args.length !== 1 || !strings(args)) return (realPath().normalize as (...a: unknown[]) => string)(...args);
  const text = args[0] as string;
  if (text === "") return ".";
  const absolute = text.startsWith("/");
  const trailing = text.endsWith("/") ? "/" : "";
  const body = collapse(text, absolute);
  if (body === "") return absolute ? "/" : `.${trailing}`;
  return `${absolute ? "/" : ""}${body}${trailing}`;
}

function join(...args: unknown[]): string {
  if (!strings(args)) return (realPath().join as (...a: unknown[]) => string)(...args);
  const joined = args.filter((part) => part !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

function resolve(...args: unknown[]): string {
  if (!strings(args)) return (realPath().resolve as (...a: unknown[]) => string)(...args);
  let resolved = "";
  for (let i = args.length - 1; i >= 0 && !resolved.startsWith("/"); i--) {
    const part = args[i] as string;
    if (part !== "") resolved = resolved === "" ? part : `${part}/${resolved}`;
  }
  if (!resolved.startsWith("/")) resolved = resolved === "" ? deno.cwd() : `${deno.cwd()}/${resolved}`;
  return `/${collapse(resolved, true)}`;
}

function isAbsolute(...args: unknown[]): boolean {
  if (args.length !== 1 || !strings(args)) return (realPath().isAbsolute as (...a: unknown[]) => boolean)(...args);
  return (args[0] as string).startsWith("/");
}

function dirname(...args: unknown[]): string {
  if (args.length !== 1 || !strings(args)) return (realPath().dirname as (...a: unknown[]) => string)(...args);
  const text = args[0] as string;
  if (text === "") return ".";
  const rooted = text.startsWith("/");
  // The slash before the last name (trailing slashes belong to the name); the slashes before it stay.
  let end = text.length - 1;
  while (end >= 1 && text[end] === "/") end--;
  while (end >= 1 && text[end] !== "/") end--;
  if (end < 1) return rooted ? "/" : ".";
  return rooted && end === 1 ? "//" : text.slice(0, end);
}

function basename(...args: unknown[]): string {
  if (args.length !== 1 || !strings(args)) return (realPath().basename as (...a: unknown[]) => string)(...args);
  const text = args[0] as string;
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(text.lastIndexOf("/", end - 1) + 1, end);
}

/** What this file answers itself; the rest of node:path is deferred (cli/hot/build.mjs). */
export const ownPath: Record<string, unknown> = deno.build.os === "windows"
  ? {}
  : { normalize, join, resolve, isAbsolute, dirname, basename, sep: "/", delimiter: ":" };
