import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CORRAL_VERSION } from "../../cli/shared/version.ts";
import { repoRoot } from "../support/corral-cli.ts";

test("cli/shared/version.ts matches package.json", () => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
  assert.equal(CORRAL_VERSION, pkg.version);
});
