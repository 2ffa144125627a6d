// `corral collect` in a bundle of its own (dist/hot/collect.cjs; hot-app.ts says why).
import { collectCommand } from "../commands/collect/command.ts";
import { hotApp } from "./hot-app.ts";

export const TARGETS = { collect: collectCommand };
export const runApp = hotApp(TARGETS);
