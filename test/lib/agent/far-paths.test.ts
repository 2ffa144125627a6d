// Paths in a request from another machine are made absolute where the far
// connect runs (lib/agent/client/remote/far-paths.ts): a relative --cwd of
// an open or job-start, a spill file, a recording; absolute ones and
// everything else pass untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathsHere } from "../../../lib/agent/client/remote/far-paths.ts";

test("relative paths are resolved against the far side's directory", () => {
  assert.deepEqual(pathsHere({ op: "job-start", cwd: "src", spill: "build.log", record: { path: "t.cast", input: true } }, "/home/ci"), {
    op: "job-start",
    cwd: "/home/ci/src",
    spill: "/home/ci/build.log",
    record: { path: "/home/ci/t.cast", input: true },
  });
  assert.deepEqual(pathsHere({ op: "open", cwd: "../x" }, "/home/ci"), { op: "open", cwd: "/home/x" });
  assert.deepEqual(pathsHere({ op: "exec", session: "1", spill: "out.log" }, "/home/ci"), { op: "exec", session: "1", spill: "/home/ci/out.log" });
});

test("absolute paths, other ops' fields and odd values pass as they came", () => {
  const absolute = { op: "job-start", cwd: "/srv", spill: "/tmp/a.log", record: { path: "/tmp/t.cast" } };
  assert.equal(pathsHere(absolute, "/home/ci"), absolute);
  const other = { op: "screen", session: "1", cwd: "rel" };
  assert.equal(pathsHere(other, "/home/ci"), other);
  const odd = { op: "job-start", cwd: 7, spill: "", record: "x" };
  assert.equal(pathsHere(odd, "/home/ci"), odd);
});
