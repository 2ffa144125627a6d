// What a command line that leaves out a required argument is told, in
// corral's words instead of the parser's ("Expected at least 1 argument(s)
// for command but found none"): what is missing and a line that works.
// `collect`'s own check says the same as run's parser error.
export const NO_COMMAND = "no command given; put it after --, e.g. corral run -- make test";

/**
 * The line for a positional argument the parser found missing, by its
 * placeholder and how many words were given; undefined keeps the parser's.
 */
export function missingArgumentLine(placeholder: string, given: number): string | undefined {
  if (placeholder === "command") return NO_COMMAND;
  if (placeholder === "session") return "no session given; name one by its id or name (corral pty list shows them)";
  if (placeholder === "session command") {
    return given === 0
      ? "no session and no command given; e.g. corral pty exec sh1 -- npm test"
      : "no command given; put it after the session, e.g. corral pty exec sh1 -- npm test";
  }
  return undefined;
}
