// npm's install script (package.json "install" runs native/install.mjs,
// which loads this bundle as dist/install.mjs): builds the guardian into
// this copy's native/build with the system C compiler. It never fails the
// install: without a compiler it says so in one line, and corral runs on
// its fallbacks (`corral probe` lists what that loses).
import path from "node:path";
import process from "node:process";
import { compileGuardian, executable, packageRoot } from "../lib/supervise/guardian-setup.ts";
import { placeLauncher } from "./native-client-install.ts";

const root = packageRoot();
// A source checkout that already ran make keeps its build (make decides when to rebuild).
if (root !== null && !executable(path.join(root, "native", "build", "corral-guardian"))) {
  const result = compileGuardian(path.join(root, "native"), path.join(root, "native", "build"));
  if (result.ok) {
    process.stdout.write(`corral: built the guardian: ${result.guardian}\n`);
  } else {
    const fix = `${process.execPath} ${path.join(root, "dist", "corral.cjs")} probe --build`;
    process.stderr.write(`corral: the guardian was not built (${result.why}); corral works without it, with weaker guarantees (corral probe lists them); to build it later: ${fix}\n`);
  }
}

// The bin (dist/corral): this machine's native client, or a link to the JavaScript CLI.
if (root !== null) {
  const launcher = placeLauncher(root);
  if (launcher.kind === "javascript") {
    process.stderr.write(`corral: the native client was not built (${launcher.why}); every command runs through the JavaScript CLI, slower to start (corral probe says which door answers)\n`);
  }
}
