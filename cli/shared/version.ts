// Kept in step with package.json by test/cli/version.test.ts; a constant, so the
// client never reads package.json at start-up.
export const CORRAL_VERSION = "0.1.0";
