// The checks of a request that need what the protocol folder does not load:
// a user's regular expression is compiled by RE2 (lib/pty/wait-pattern.ts)
// before anything waits on it, so a bad one is a `bad_request` naming it.
import type { FieldChecks } from "../protocol/fields.ts";
import { compileRegex, PatternError } from "../../pty/wait-pattern.ts";

export const SERVER_CHECKS: FieldChecks = {
  regexProblem(source) {
    try {
      compileRegex(source);
      return null;
    } catch (error) {
      if (error instanceof PatternError) return error.message;
      throw error;
    }
  },
};
