import { test } from "node:test";
import assert from "node:assert/strict";
import { buildChildEnv } from "../lib/env/child-env.ts";
import { EnvAssignmentError, parseEnvAssignment } from "../lib/env/assignment.ts";
import { NamePatterns } from "../lib/env/name-pattern.ts";
import { DEFAULT_SCRUB_EXCEPTIONS, DEFAULT_SCRUB_PATTERNS } from "../lib/env/patterns.ts";

const base = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/x",
  GITHUB_TOKEN: "ghp_secret",
  my_secret_thing: "s1",
  DB_PASSWORD: "pw",
  AWS_REGION: "eu-west-1",
  AUTHOR: "a",
  SSH_AUTH_SOCK: "/tmp/agent.sock",
  CORRAL_STATE_DIR: "/tmp/c",
  OPENAI_API_KEY: "k",
  UNSET: undefined,
};

const defaults = { scrubPatterns: DEFAULT_SCRUB_PATTERNS, keepPatterns: DEFAULT_SCRUB_EXCEPTIONS };

test("credential-shaped names are dropped, case-insensitively; SSH_AUTH_SOCK is kept", () => {
  const { env, dropped } = buildChildEnv({ base, ...defaults });
  assert.deepEqual(Object.keys(env).sort(), ["HOME", "PATH", "SSH_AUTH_SOCK"]);
  assert.deepEqual(dropped, [
    "AUTHOR",
    "AWS_REGION",
    "CORRAL_STATE_DIR",
    "DB_PASSWORD",
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "my_secret_thing",
  ]);
});

test("--keep-env keeps a name; --env sets one and it is no longer listed as dropped", () => {
  const { env, dropped } = buildChildEnv({
    base,
    ...defaults,
    keepNames: ["GITHUB_TOKEN"],
    set: [{ name: "DB_PASSWORD", value: "explicit" }],
  });
  assert.equal(env["GITHUB_TOKEN"], "ghp_secret");
  assert.equal(env["DB_PASSWORD"], "explicit");
  assert.ok(!dropped.includes("GITHUB_TOKEN"));
  assert.ok(!dropped.includes("DB_PASSWORD"));
});

test("--no-scrub passes everything; --clear-env passes only kept and set names", () => {
  const all = buildChildEnv({ base, ...defaults, scrub: false });
  assert.equal(Object.keys(all.env).length, 10);
  assert.deepEqual(all.dropped, []);
  const cleared = buildChildEnv({ base, ...defaults, clear: true, keepNames: ["PATH"], set: [{ name: "A", value: "1" }] });
  assert.deepEqual(cleared.env, { PATH: "/usr/bin:/bin", A: "1" });
  assert.equal(cleared.cleared, 9);
  const globbed = buildChildEnv({ base, ...defaults, clear: true, keepNames: ["*_TOKEN", "HOME"] });
  assert.deepEqual(globbed.env, { HOME: "/home/x", GITHUB_TOKEN: "ghp_secret" });
});

test("name patterns are globs: * is any run, other characters literal", () => {
  const p = new NamePatterns(["AWS_*", "*TOKEN*", "A.B"]);
  assert.ok(p.matches("aws_x"));
  assert.ok(p.matches("TOKEN"));
  assert.ok(p.matches("MY_token_2"));
  assert.ok(p.matches("A.B"));
  assert.ok(!p.matches("AxB"));
  assert.ok(!p.matches("XAWS_"));
});

test("--env NAME=VALUE parsing; a malformed one never echoes its text", () => {
  assert.deepEqual(parseEnvAssignment("A=b=c"), { name: "A", value: "b=c" });
  assert.deepEqual(parseEnvAssignment("EMPTY="), { name: "EMPTY", value: "" });
  for (const bad of ["hunter2secret", "=hunter2secret"]) {
    assert.throws(() => parseEnvAssignment(bad), (error: unknown) => {
      assert.ok(error instanceof EnvAssignmentError);
      assert.ok(!error.message.includes("hunter2secret"));
      return true;
    });
  }
});
