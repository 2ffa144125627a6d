// Implementation of `corral config`, loaded lazily by cli/commands/config/command.ts.
import { stringify } from "yaml";
import { ConfigError, configLocation, loadConfigFile } from "../../../lib/config/load.ts";
import { configToFileShape } from "../../../lib/config/file-shape.ts";
import type { ConfigFlags } from "./flags.ts";
import type { CorralContext } from "../../shared/context.ts";
import { ExitStatus } from "../../shared/exit-status.ts";

/** Prints the effective config as YAML (default), JSON, or only its path. */
export async function printConfig(this: CorralContext, flags: ConfigFlags): Promise<void> {
  const out = this.process.stdout;
  if (flags.path === true) {
    // Only the path: works even when the file is broken, so it can be opened.
    out.write(`${configLocation(this.process.env).path}\n`);
    this.process.exitCode = ExitStatus.ok;
    return;
  }
  let loaded;
  try {
    loaded = await loadConfigFile(this.process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    this.process.stderr.write(`corral: ${error.message}\n`);
    this.process.exitCode = ExitStatus.usage;
    return;
  }
  if (flags.json === true) {
    out.write(`${JSON.stringify({ file: loaded.file, path: loaded.path, config: loaded.config })}\n`);
  } else {
    const origin = loaded.file === null
      ? `# corral config: built-in defaults (no file at ${loaded.path})`
      : `# corral config: from ${loaded.file}`;
    out.write(`${origin}\n${stringify(configToFileShape(loaded.config))}`);
  }
  this.process.exitCode = ExitStatus.ok;
}
