// `corral pty ...` in a bundle of its own (dist/hot/pty.cjs; hot-app.ts says why).
import { ptyRoutes } from "../commands/pty/command.ts";
import { hotApp } from "./hot-app.ts";

export const TARGETS = { pty: ptyRoutes };
export const runApp = hotApp(TARGETS);
