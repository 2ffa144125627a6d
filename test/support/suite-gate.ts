// What `npm test` checks before the suite (run-suite.ts --gate): the build,
// the typecheck, the lint and the guardian's sanitizer build. They read the
// sources and write nowhere the others read (deno lint and tsc skip dist/,
// `make sanitize` writes only build/corral-guardian-asan, by a temporary
// name), so they run side by side: on 2 cores that took the gate from about
// 8 s one after another to about 4 s. Each one's output is kept and printed
// whole, in a fixed order, so two never interleave; the suite runs only when
// all passed, as with the `&&` chain this replaces.
import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./corral-cli.ts";

interface GateCheck {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * The package's own scripts (one definition each, in package.json), and the
 * sanitizer build the guardian test files use (`make all` is the build's).
 */
const CHECKS: readonly GateCheck[] = [
  { label: "npm run build", command: "npm", args: ["run", "--silent", "build"] },
  { label: "npm run typecheck", command: "npm", args: ["run", "--silent", "typecheck"] },
  { label: "npm run lint", command: "npm", args: ["run", "--silent", "lint"] },
  { label: "make -C native sanitize", command: "make", args: ["-s", "-C", path.join(repoRoot, "native"), "sanitize"] },
];

interface CheckResult {
  readonly check: GateCheck;
  readonly ok: boolean;
  readonly output: string;
  readonly seconds: number;
}

function runCheck(check: GateCheck): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(check.command, check.args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    const done = (ok: boolean, extra = "") =>
      resolve({ check, ok, output: Buffer.concat(chunks).toString("utf8") + extra, seconds: (performance.now() - started) / 1000 });
    child.on("error", (error) => done(false, `${check.command}: ${error.message}\n`));
    child.on("close", (code, signal) => done(code === 0, code === 0 ? "" : `(exited ${code ?? signal})\n`));
  });
}

/** Runs the checks at once and prints each whole; true when all passed. */
export async function runGate(out: NodeJS.WritableStream = process.stdout): Promise<boolean> {
  const started = performance.now();
  const results = await Promise.all(CHECKS.map(runCheck));
  for (const result of results) {
    out.write(`# gate: ${result.check.label}: ${result.ok ? "ok" : "FAILED"} (${result.seconds.toFixed(1)} s)\n`);
    if (result.output !== "") out.write(result.output.endsWith("\n") ? result.output : `${result.output}\n`);
  }
  const failed = results.filter((r) => !r.ok).map((r) => r.check.label);
  out.write(
    failed.length === 0
      ? `# gate: all passed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`
      : `# gate: ${failed.join(", ")} failed; the suite does not run\n`,
  );
  return failed.length === 0;
}
