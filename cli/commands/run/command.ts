// `corral run`: run a command with its stdio inherited, a timeout that kills
// the whole tree, and the exit status mirrored (DESIGN.md 4.1). The
// implementation loads lazily so start-up stays light.
import { buildCommand } from "@stricli/core";
import { commandPositional, type CorralContext, type RunFlags, runFlagParameters, type RunJobFlags, runJobFlagParameters } from "./flags.ts";

export const runCommand = buildCommand<RunFlags & RunJobFlags, readonly string[], CorralContext>({
  loader: async () => (await import("./impl.ts")).runAction,
  parameters: {
    flags: { ...runFlagParameters, ...runJobFlagParameters },
    positional: commandPositional,
  },
  docs: {
    brief: "Run a command; mirror its exit status; leave nothing running",
    fullDescription: [
      "Runs CMD with corral's stdin, stdout and stderr, in its own process group.",
      "When it exits (or --timeout fires, or corral gets SIGINT/SIGTERM/SIGHUP),",
      "whatever it left running in that group is terminated: SIGTERM, --grace, SIGKILL.",
      "Exit status: the command's own; 128+N when killed by signal N; 124 on --timeout;",
      "127 not found; 126 not executable; 2 bad flag or value (also a missing --cwd); 125 corral failed.",
      "Credential-shaped variables (*TOKEN*, *SECRET*, AWS_*, ...) are not passed unless kept.",
      "--bg starts CMD as a job in the agent and prints its id (%N); --tty runs it on a terminal",
      "the agent holds, in the foreground of this one: Ctrl-Z parks it (exit 148), corral fg resumes it.",
      "",
      "Examples:",
      "  corral run -- make test",
      "  corral run --timeout 30s --grace 2s -- ./flaky-server --port 8080",
      "  corral run --env DEBUG=1 --keep-env GITHUB_TOKEN --explain -- ./deploy.sh",
      "  corral run --cwd /tmp --clear-env --keep-env PATH --facts facts.json -- env",
      "  corral run --bg --name build --spill build.log -- make -j8",
      "  corral run --tty -- vim notes.txt",
    ].join("\n"),
  },
});
