// What a command line that leaves out a required argument is told, in
// corral's words instead of the parser's ("Expected at least 1 argument(s)
// for command but found none"): what is missing and a line that works.
// `collect`'s own check says the same as the parser's error on run.
/** The line for a command line with no command after `--`, with an example of `corral VERB`. */
export function noCommandLine(verb: "run" | "collect" | "pty open"): string {
  return `no command given; put it after --, e.g. corral ${verb} -- ${verb === "pty open" ? "bash" : "make test"}`;
}

/**
 * The line for a positional argument the parser found missing, by its
 * placeholder, how many words were given and the command line (`args`);
 * undefined keeps the parser's.
 */
export function missingArgumentLine(placeholder: string, given: number, args: readonly string[] = []): string | undefined {
  if (placeholder === "command") {
    // The example is the command typed: a terminal program for pty open, a build step for run and collect.
    if (args[0] === "pty" && args[1] === "open") return noCommandLine("pty open");
    return noCommandLine(args[0] === "collect" ? "collect" : "run");
  }
  if (placeholder === "session") return "no session given; name one by its id or name (corral pty list shows them)";
  if (placeholder === "session command") {
    return given === 0
      ? "no session and no command given; e.g. corral pty exec sh1 -- npm test"
      : "no command given; put it after the session, e.g. corral pty exec sh1 -- npm test";
  }
  return undefined;
}
