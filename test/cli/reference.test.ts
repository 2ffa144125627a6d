// The reference generated from the command table cannot go stale: man/*.1
// and docs/commands.md are what cli/reference/write.ts makes from the same
// definitions `--help` prints (regenerate with `npm run reference` and
// commit); every page renders with groff's man macros without a warning, and
// `man -l` shows one; package.json lists every page so a global install
// links them where man finds them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { referenceFiles, repoRoot } from "../../cli/reference/write.ts";

const files = await referenceFiles();
const pages = [...files.keys()].filter((f) => f.startsWith("man/"));

test("man/*.1 and docs/commands.md are what npm run reference writes now", () => {
  const stale = [...files].filter(([file, content]) => {
    try {
      return readFileSync(path.join(repoRoot, file), "utf8") !== content;
    } catch {
      return true;
    }
  }).map(([file]) => file);
  const extra = readdirSync(path.join(repoRoot, "man")).map((f) => `man/${f}`).filter((f) => !files.has(f));
  assert.deepEqual({ stale, extra }, { stale: [], extra: [] }, "run npm run reference and commit the result");
});

test("a page per top-level command, and corral.1", () => {
  for (const name of ["corral", "corral-run", "corral-collect", "corral-pty", "corral-jobs", "corral-agent", "corral-probe"]) {
    assert.ok(files.has(`man/${name}.1`), `man/${name}.1`);
  }
});

test("package.json's man lists every page", () => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { man?: string[]; files?: string[] };
  assert.deepEqual([...(manifest.man ?? [])].sort(), pages.sort());
  assert.ok(manifest.files?.includes("man/"), "man/ is in the package");
});

test("every page renders with groff -man -Tutf8 -ww without a warning", (t) => {
  if (spawnSync("groff", ["--version"]).status !== 0) {
    t.skip("groff is not installed (Debian: groff-base)");
    return;
  }
  for (const page of pages) {
    const r = spawnSync("groff", ["-man", "-Tutf8", "-ww", "-z", path.join(repoRoot, page)], { encoding: "utf8" });
    assert.equal(r.status, 0, `${page}: ${r.stderr}`);
    assert.equal(r.stderr, "", `${page}: groff warns`);
  }
});

test("man -l man/corral-pty.1 shows the page with every pty subcommand", (t) => {
  if (spawnSync("man", ["--version"]).status !== 0) {
    t.skip("man is not installed (Debian: man-db)");
    return;
  }
  const r = spawnSync("man", ["-l", path.join(repoRoot, "man", "corral-pty.1")], { encoding: "utf8", env: { ...process.env, MANPAGER: "cat", PAGER: "cat", MANWIDTH: "80" } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, /^NAME\n +corral-pty - /m);
  for (const sub of ["open", "send", "screen", "wait", "resize", "close", "list", "attach", "record", "view"]) {
    assert.match(r.stdout, new RegExp(`^ {3}corral pty ${sub}$`, "m"), `corral pty ${sub}`);
  }
});
