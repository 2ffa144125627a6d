// The stricli application over a route map from the registry (cli/registry.ts
// loadRoutes): the name, version, scanner and documentation settings, and
// corral's wording of stricli's errors.
import { type Application, ArgumentParseError, buildApplication, type RouteMap, text_en, UnsatisfiedPositionalError } from "@stricli/core";
import type { CorralContext } from "./shared/context.ts";
import { CORRAL_VERSION } from "./shared/version.ts";
import { ExitStatus, UsageError } from "./shared/exit-status.ts";
import { oneLine } from "./shared/error-line.ts";
import { missingArgumentLine } from "./shared/missing-argument.ts";
import { parseErrorLine, unknownCommandLine } from "./shared/parse-error-line.ts";

/**
 * The application over `routes` (the whole table, or the one command being
 * run); `args`, the command line it will run, picks the example a missing
 * command is told (`corral pty open -- bash`, not `corral run -- ...`).
 */
export const buildApp = (routes: RouteMap<CorralContext>, args: readonly string[] = []): Application<CorralContext> => buildApplication<CorralContext>(routes, {
  name: "corral",
  versionInfo: { currentVersion: CORRAL_VERSION },
  scanner: { caseStyle: "allow-kebab-for-camel", allowArgumentEscapeSequence: true },
  documentation: { caseStyle: "convert-camel-to-kebab", useAliasInUsageLine: true },
  localization: {
    loadText: () => ({
      ...text_en,
      exceptionWhileRunningCommand: (exc: unknown) =>
        `corral: ${oneLine(exc instanceof Error ? exc.message : String(exc))}`,
      commandErrorResult: (err: Error) => `corral: ${oneLine(err.message)}`,
      // stricli's own usage errors (unknown flag, missing value, unknown
      // command) get the same prefix and a pointer to the help.
      // A bad value caught by a shared flag parser (cli/shared/flag-parsers.ts)
      // is its own line, as when the action checked it: stricli's wrapping
      // would echo the input, and an `--env` value may be a secret.
      // A missing command or session is said in corral's words (missing-argument.ts),
      // and so are an unknown flag, a flag with no value or given twice, and an extra argument (parse-error-line.ts).
      exceptionWhileParsingArguments: (exc: unknown, ansiColor: boolean) => {
        if (exc instanceof ArgumentParseError && exc.exception instanceof UsageError) return `corral: ${oneLine(exc.exception.message)}`;
        const refused = parseErrorLine(exc, args);
        if (refused !== undefined) return `corral: ${refused}`;
        const missing = exc instanceof UnsatisfiedPositionalError ? missingArgumentLine(exc.placeholder, exc.limit?.[1] ?? 0, args) : undefined;
        return missing !== undefined ? `corral: ${missing}` : `corral: ${oneLine(text_en.exceptionWhileParsingArguments(exc, ansiColor))} (see --help)`;
      },
      noCommandRegisteredForInput: ({ input, corrections }: Parameters<typeof text_en.noCommandRegisteredForInput>[0]) =>
        `corral: ${unknownCommandLine(input, corrections, args)}`,
    }),
  },
  determineExitCode: (exc: unknown) =>
    exc instanceof UsageError ? ExitStatus.usage : ExitStatus.corralFailure,
});
