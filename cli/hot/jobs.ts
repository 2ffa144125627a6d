// `corral jobs`, `fg`, `bg` and `reap` in one bundle of their own
// (dist/hot/jobs.cjs; hot-app.ts says why): one definitions file holds all four.
import { bgCommand, fgCommand, jobsRoutes, reapCommand } from "../commands/jobs/command.ts";
import { hotApp } from "./hot-app.ts";

export const TARGETS = { jobs: jobsRoutes, fg: fgCommand, bg: bgCommand, reap: reapCommand };
export const runApp = hotApp(TARGETS);
