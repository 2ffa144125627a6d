import { test } from "node:test";
import assert from "node:assert/strict";
import { corral, runtime } from "../support/corral-cli.ts";
import { CORRAL_VERSION } from "../../cli/version.ts";

test(`corral --version under ${runtime}`, async () => {
  const result = await corral(["--version"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.toString().trim(), CORRAL_VERSION);
});

test(`an unknown flag is a usage error (2) under ${runtime}`, async () => {
  const result = await corral(["--no-such-flag"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--no-such-flag/);
});

test(`an error line piped to a script has no colour escapes under ${runtime}`, async () => {
  // Deno's node:tty reported colour for pipes too, and stricli coloured the line.
  const result = await corral(["run", "--timeout", "5x", "--", "true"]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, result.stderr.replace(/\x1b\[[0-9;]*m/g, ""), `no escapes in ${JSON.stringify(result.stderr)}`);
  assert.match(result.stderr, /^corral: --timeout: "5x" is not a duration/);
});
