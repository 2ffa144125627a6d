// The generated scripts driven for real: bash by setting COMP_WORDS and
// calling the completion function, zsh with its completion builtins stubbed,
// fish with `complete -C`. zsh and fish are optional (CI has neither).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CommandContext, RouteMap } from "@stricli/core";
import { corral } from "../../support/corral-cli.ts";
import { corralInProcess } from "../../support/corral-in-process.ts";
import { loadRoutes } from "../../../cli/registry.ts";

const rootRoutes = await loadRoutes();

const dir = mkdtempSync(path.join(os.tmpdir(), "corral-completions-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

// A stand-in `corral` on PATH answering the id hook, so the scripts' use of
// `corral completions --ids` is checked without an agent.
const stubBin = path.join(dir, "bin");
mkdirSync(stubBin);
writeFileSync(
  path.join(stubBin, "corral"),
  '#!/bin/sh\n[ "$1 $2" = "completions --ids" ] || exit 3\ncase "$3" in sessions) printf "build\\nweb\\n" ;; jobs) printf "%%1\\n%%2\\n" ;; esac\n',
);
chmodSync(path.join(stubBin, "corral"), 0o755);
const shellEnv = { ...process.env, PATH: `${stubBin}:${process.env.PATH ?? ""}` };

// A place with known file names for FILE/DIR completion.
const files = path.join(dir, "files");
mkdirSync(path.join(files, "subdir"), { recursive: true });
writeFileSync(path.join(files, "spill.log"), "");

function hasShell(name: string): boolean {
  return spawnSync(name, ["-c", "exit 0"], { stdio: "ignore" }).status === 0;
}

async function script(shell: string): Promise<string> {
  const result = await corral(["completions", shell]);
  assert.equal(result.code, 0, result.stderr);
  const file = path.join(dir, `script.${shell}`);
  writeFileSync(file, result.stdout);
  return file;
}

function runShell(argv: string[], input: string): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { input, env: shellEnv, cwd: files, encoding: "utf8" });
  assert.equal(result.status, 0, `${argv.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

const rootNames = [
  ...(rootRoutes as unknown as RouteMap<CommandContext>).getAllEntries()
    .filter((e) => !e.hidden)
    .map((e) => e.name["convert-camel-to-kebab"]),
  // The words the command line takes besides its commands: corral help COMMAND..., corral version.
  "help",
  "version",
];

/** Cases: the words typed (last one is being completed) and what must be offered. */
const CASES: [string[], string[]][] = [
  [["co"], rootNames.filter((name) => name.startsWith("co"))],
  [["collect", "--m"], ["--max-bytes", "--merge"]],
  [["collect", "--json", "--he"], ["--head-bytes", "--head-lines", "--heartbeat", "--help"]],
  [["completions", ""], ["bash", "zsh", "fish"]],
  [["completions", "--ids", ""], ["sessions", "jobs"]],
  [["collect", "--spill", "sp"], ["spill.log"]],
  [["run", "--cwd", "sub"], ["subdir"]],
  [["config", "--"], ["--json", "--path", "--help"]],
  [["help", "p"], ["probe", "pty"]],
  [["help", "pty", "o"], ["open"]],
];

function sorted(list: readonly string[]): string[] {
  return [...new Set(list)].sort();
}

test("bash: subcommands, flags per command, enum values, files, ids", async () => {
  const file = await script("bash");
  const cases: [string[], string[]][] = [
    [[""], rootNames],
    ...CASES,
    [["completions", "--ids", "=", ""], ["sessions", "jobs"]],
    [["collect", "--", "corral-test-st"], ["corral-test-stub-command"]],
  ];
  const calls = cases.map(([words]) =>
    `COMP_WORDS=(corral ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; COMPREPLY=(); _corral; ` +
    `printf '%s\\n' "\${COMPREPLY[@]}"; echo '@@'`
  );
  writeFileSync(path.join(stubBin, "corral-test-stub-command"), "#!/bin/sh\n");
  chmodSync(path.join(stubBin, "corral-test-stub-command"), 0o755);
  const out = runShell(["bash", "--norc", "--noprofile"], `source '${file}'\n${calls.join("\n")}\n`);
  const answers = out.split("@@\n").slice(0, cases.length).map((a) => a.split("\n").filter((l) => l !== ""));
  cases.forEach(([words, expected], i) => {
    assert.deepEqual(sorted(answers[i] ?? []), sorted(expected), `corral ${words.join(" ")}<TAB>`);
  });
});

test("bash: the id hook offers what `corral completions --ids` prints", async () => {
  const file = await script("bash");
  const bash = (words: string[]) =>
    runShell(["bash", "--norc", "--noprofile"], `source '${file}'
COMP_WORDS=(corral ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; COMPREPLY=(); _corral
printf '%s\\n' "\${COMPREPLY[@]}"
`).split("\n").filter((l) => l !== "");
  assert.deepEqual(bash(["fg", ""]), ["%1", "%2"]);
  assert.deepEqual(bash(["collect", "--job", "%2"]), ["%2"]);
  assert.deepEqual(bash(["pty", "send", "w"]), ["web"]);
  assert.deepEqual(bash(["pty", "resize", "web", ""]), []);
});

test("corral completions --ids: one id a line, exit 0, nothing on stderr", async () => {
  for (const kind of ["sessions", "jobs"]) {
    const result = await corral(["completions", "--ids", kind], { env: { CORRAL_STATE_DIR: path.join(dir, "state") } });
    assert.equal(result.code, 0);
    assert.equal(result.stderr, "");
    assert.match(result.stdout.toString(), /^([^\n]+\n)*$/);
  }
});

test("corral completions without a shell, or with an unknown one, is a usage error", async () => {
  const none = await corralInProcess(["completions"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^corral: .*bash\|zsh\|fish/);
  const tcsh = await corralInProcess(["completions", "tcsh"]);
  assert.equal(tcsh.code, 2);
  assert.equal(tcsh.stderr, 'corral: "tcsh" is not a supported shell; use bash, zsh or fish\n');
});

test("corral completions --write DIR writes the three scripts", async () => {
  const out = path.join(dir, "written");
  mkdirSync(out);
  const result = await corral(["completions", "--write", out]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(result.stdout.toString().trim().split("\n").map((p) => path.basename(p)).sort(), ["_corral", "corral.bash", "corral.fish"]);
});

test("zsh: the script parses and completes (completion builtins stubbed)", { skip: !hasShell("zsh") && "zsh not installed" }, async () => {
  const file = await script("zsh");
  runShell(["zsh", "-n", file], "");
  const stubs = `compdef() { :; }
compadd() { if [[ $1 == -a ]]; then print -rl -- \${(P)2}; else shift; print -rl -- "$@"; fi }
_describe() { local e; for e in \${(P)4}; do print -r -- \${e%%:*}; done }
_files() { print -r -- FILES; }
_command_names() { print -r -- COMMANDS; }
compset() { :; }
`;
  const cases: [string[], string[]][] = [
    ...CASES.filter(([words]) => !["--spill", "--cwd"].includes(words[1] ?? "")),
    [["collect", "--spill", ""], ["FILES"]],
    [["run", "--", ""], ["COMMANDS"]],
  ];
  const calls = cases.map(([words]) => `words=(corral ${words.map((w) => `'${w}'`).join(" ")}); CURRENT=\${#words}; _corral; print -r -- '@@'`);
  const out = runShell(["zsh", "-f"], `${stubs}source '${file}'\n${calls.join("\n")}\n`);
  const answers = out.split("@@\n").map((a) => a.split("\n").filter((l) => l !== ""));
  cases.forEach(([words, expected], i) => {
    const prefix = words[words.length - 1] ?? "";
    // zsh filters by prefix itself; the stubs see every candidate.
    const offered = (answers[i] ?? []).filter((c) => c.startsWith(prefix) || c === "FILES" || c === "COMMANDS");
    assert.deepEqual(sorted(offered), sorted(expected), `corral ${words.join(" ")}<TAB>`);
  });
});

test("fish: the script parses and completes (complete -C)", { skip: !hasShell("fish") && "fish not installed" }, async () => {
  const file = await script("fish");
  runShell(["fish", "--no-execute", file], "");
  const calls = CASES.map(([words]) => `complete -C'corral ${words.join(" ")}'; echo '@@'`);
  // fish refuses a script on a stdin pipe from spawnSync ("Is a directory"): use a file.
  const driver = path.join(dir, "driver.fish");
  writeFileSync(driver, `source '${file}'\n${calls.join("\n")}\n`);
  const out = runShell(["fish", "--no-config", driver], "");
  const answers = out.split("@@\n").map((a) => a.split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0] ?? ""));
  CASES.forEach(([words, expected], i) => {
    const got = (answers[i] ?? []).map((c) => c.replace(/\/$/, ""));
    assert.deepEqual(sorted(got), sorted(expected), `corral ${words.join(" ")}<TAB>`);
  });
});
