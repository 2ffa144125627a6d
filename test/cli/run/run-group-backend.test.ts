// The run and collect CLI tests once more with the pure-JavaScript
// process-group backend forced ($CORRAL_GUARDIAN=never): the default is the
// guardian whenever it is built, so without this file the fallback path that
// machines without a C compiler take would go untested end to end.
import process from "node:process";

process.env["CORRAL_GUARDIAN"] = "never";
await import("./run-cli.test.ts");
await import("../collect/collect-cli.test.ts");

const { test } = await import("node:test");
const assert = (await import("node:assert/strict")).default;
const { corral } = await import("../../support/corral-cli.ts");

test("this file really runs the process-group backend", async () => {
  const result = await corral(["run", "--explain", "--", "true"]);
  assert.match(result.stderr, /started pid \d+ under process group/);
});
