#!/usr/bin/env node
// Entry point for every runtime (Node bundle, `deno run`, `bun`).
import { run } from "@stricli/core";
import process from "node:process";
import { app } from "./app.ts";
import type { CorralProcess } from "./context.ts";
import { ExitStatus } from "./exit-status.ts";
import { dieOfSignal } from "./signal-death.ts";

const corralProcess: CorralProcess = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
};

await run(app, process.argv.slice(2), { process: corralProcess });

// stricli reports its own failures as negative codes: a bad flag or value,
// an unknown command. corral's contract (DESIGN.md 4.1) calls those usage
// errors, status 2; any other negative code is corral's own failure.
const code = corralProcess.exitCode;
if (typeof code === "number" && code < 0) {
  process.exitCode = code === -4 || code === -5 ? ExitStatus.usage : ExitStatus.corralFailure;
} else {
  process.exitCode = typeof code === "number" ? code : ExitStatus.ok;
}

if (corralProcess.dieOf !== undefined) await dieOfSignal(corralProcess.dieOf);
