// `corral run` in a bundle of its own (dist/hot/run.cjs; hot-app.ts says why).
import { runCommand } from "../commands/run/command.ts";
import { hotApp } from "./hot-app.ts";

export const TARGETS = { run: runCommand };
export const runApp = hotApp(TARGETS);
