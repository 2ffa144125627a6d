// The committed bash script in a real interactive bash (a private tmux
// server, `-L`, `-f /dev/null`): what readline does with the candidates when
// Tab is pressed, not only what the function returns.
import { test } from "node:test";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";

const haveTmux = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;

test("bash in a terminal: Tab completes subcommands, flags and enum values", { skip: !haveTmux && "tmux not installed" }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-compl-term-"));
  const socket = `corral-completions-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  // A stand-in `corral` on the pane's PATH: completion needs only its name, and its --ids answer.
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(path.join(bin, "corral"), "#!/bin/sh\n[ \"$3\" = jobs ] && echo %7\nexit 0\n");
  chmodSync(path.join(bin, "corral"), 0o755);
  const screen = () => tmux("capture-pane", "-p", "-t", "t");
  const line = async (typed: string, expected: string) => {
    tmux("send-keys", "-t", "t", "-l", typed);
    tmux("send-keys", "-t", "t", "Tab");
    try {
      await waitFor(() => screen().split("\n").some((l) => l.trimEnd() === `$ ${expected}`.trimEnd()), { what: `"$ ${expected}" on screen`, intervalMs: 50 });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- screen ---\n${screen()}`);
    }
    tmux("send-keys", "-t", "t", "C-u");
  };
  try {
    tmux("new-session", "-d", "-s", "t", "-x", "150", "-y", "20", "-c", dir, "--", "bash", "--norc", "--noprofile");
    const script = path.join(repoRoot, "completions", "corral.bash");
    tmux("send-keys", "-t", "t", "-l", `PATH='${bin}':$PATH; PS1='$ '; source '${script}'; clear`);
    tmux("send-keys", "-t", "t", "Enter");
    await waitFor(() => /^\$\s*$/m.test(screen()), { what: "the prompt", intervalMs: 50 });
    await line("corral compl", "corral completions ");
    await line("corral collect --max-b", "corral collect --max-bytes ");
    await line("corral completions --ids se", "corral completions --ids sessions ");
    await line("corral completions z", "corral completions zsh ");
    await line("corral fg ", "corral fg %7 ");
  } finally {
    spawnSync("tmux", ["-L", socket, "-f", "/dev/null", "kill-server"], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
});
