// The tools of `corral mcp`, in the order tools/list gives them: the one
// table the server, the docs' reference (docs/mcp.md) and the tests read.
import type { Tool } from "../tool.ts";
import { runTool } from "./run.ts";
import { terminalCloseTool, terminalListTool, terminalOpenTool, terminalSendTool } from "./terminal.ts";
import { terminalScreenTool } from "./terminal-screen.ts";
import { terminalWaitTool } from "./terminal-wait.ts";
import { terminalExecTool } from "./terminal-exec.ts";
import { jobReadTool, jobStartTool, jobStopTool, jobWaitTool } from "./jobs.ts";

export const TOOLS: readonly Tool[] = [
  runTool,
  terminalOpenTool,
  terminalSendTool,
  terminalExecTool,
  terminalScreenTool,
  terminalWaitTool,
  terminalCloseTool,
  terminalListTool,
  jobStartTool,
  jobReadTool,
  jobWaitTool,
  jobStopTool,
];
