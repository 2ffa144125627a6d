import { test } from "node:test";
import assert from "node:assert/strict";
import { buildChildEnv } from "../../../lib/env/child-env.ts";
import { EnvAssignmentError, parseEnvAssignment } from "../../../lib/env/assignment.ts";
import { NamePatterns } from "../../../lib/env/name-pattern.ts";
import { DEFAULT_SCRUB_EXCEPTIONS, DEFAULT_SCRUB_PATTERNS } from "../../../lib/env/patterns.ts";

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

test("credential-shaped names are dropped, case-insensitively; SSH_AUTH_SOCK, AWS_REGION and AUTHOR are kept", () => {
  const { env, dropped } = buildChildEnv({ base, ...defaults });
  assert.deepEqual(Object.keys(env).sort(), ["AUTHOR", "AWS_REGION", "HOME", "PATH", "SSH_AUTH_SOCK"]);
  assert.deepEqual(dropped, [
    "CORRAL_STATE_DIR",
    "DB_PASSWORD",
    "GITHUB_TOKEN",
    "OPENAI_API_KEY",
    "my_secret_thing",
  ]);
});

// Real names from the documentation of well-known tools (GitHub Actions, GitLab CI, npm, yarn,
// AWS CLI, Azure/Terraform, Google Cloud, libpq, MySQL, Docker images, Hugging Face, OpenAI,
// Anthropic, Vault, Consul, Nomad, Heroku, Slack, Twilio, Stripe, Datadog, Sentry, Codecov,
// Sonar, Snyk, Cargo, Twine, RubyGems, NuGet, Homebrew, ngrok, Rails, Django, New Relic, MinIO,
// Gradle, Netlify, Vercel, Pulumi...).
const mustGo = [
  "GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN", "CI_REGISTRY_PASSWORD",
  "NPM_TOKEN", "NODE_AUTH_TOKEN", "npm_config__authToken", "NPM_CONFIG__AUTH", "YARN_NPM_AUTH_TOKEN",
  "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECURITY_TOKEN",
  "DB_PASSWORD", "PGPASSWORD", "MYSQL_PWD", "MYSQL_ROOT_PASSWORD", "POSTGRES_PASSWORD", "REDIS_PASSWORD",
  "RABBITMQ_DEFAULT_PASS", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
  "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "SSH_PRIVATE_KEY", "GPG_PRIVATE_KEY", "GPG_PASSPHRASE",
  "BASIC_AUTH", "X_AUTH_TOKEN", "HTTP_AUTH", "DOCKER_AUTH_CONFIG", "DOCKER_PASSWORD",
  "AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "ARM_ACCESS_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CREDENTIALS", "VAULT_TOKEN", "CONSUL_HTTP_TOKEN", "NOMAD_TOKEN", "TF_TOKEN_app_terraform_io",
  "DIGITALOCEAN_ACCESS_TOKEN", "CLOUDFLARE_API_TOKEN", "CLOUDFLARE_API_KEY", "HEROKU_API_KEY",
  "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "TWILIO_AUTH_TOKEN", "STRIPE_SECRET_KEY", "SENDGRID_API_KEY",
  "DATADOG_API_KEY", "DD_API_KEY", "DD_APP_KEY", "SENTRY_AUTH_TOKEN", "CODECOV_TOKEN", "SONAR_TOKEN",
  "SNYK_TOKEN", "COVERALLS_REPO_TOKEN", "CARGO_REGISTRY_TOKEN", "TWINE_PASSWORD", "GEM_HOST_API_KEY",
  "NUGET_API_KEY", "HOMEBREW_GITHUB_API_TOKEN", "NGROK_AUTHTOKEN", "GITHUB_PAT", "JWT_SECRET",
  "SECRET_KEY_BASE", "DJANGO_SECRET_KEY", "RAILS_MASTER_KEY", "NEW_RELIC_LICENSE_KEY", "MINIO_SECRET_KEY",
  "MINIO_ACCESS_KEY", "ORG_GRADLE_PROJECT_signingPassword", "SMTP_PASS", "LDAP_BIND_PASSWORD",
  "OAUTH_CLIENT_SECRET", "FIREBASE_TOKEN", "NETLIFY_AUTH_TOKEN", "VERCEL_TOKEN", "PULUMI_ACCESS_TOKEN",
  "LINEAR_API_KEY", "MAILGUN_API_KEY", "ALGOLIA_API_KEY", "ENCRYPTION_KEY", "CORRAL_STATE_DIR",
];

const mustStay = [
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "PWD", "OLDPWD", "TZ", "EDITOR",
  "PAGER", "HOSTNAME", "COLORTERM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE", "GIT_ASKPASS", "SSH_ASKPASS",
  "SUDO_ASKPASS", "XAUTHORITY", "DISPLAY", "WAYLAND_DISPLAY", "AWS_REGION", "AWS_PROFILE",
  "AWS_DEFAULT_REGION", "AWS_CA_BUNDLE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_DEFAULT_OUTPUT", "AWS_PAGER", "AWS_ENDPOINT_URL",
  "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CONNECTION", "TOKENIZERS_PARALLELISM", "KUBECONFIG",
  "DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY", "NODE_OPTIONS", "NODE_ENV",
  "NODE_EXTRA_CA_CERTS", "NPM_CONFIG_REGISTRY", "PYTHONPATH", "VIRTUAL_ENV", "CARGO_HOME", "GOPATH",
  "GOPROXY", "JAVA_HOME", "CI", "GITHUB_ACTIONS", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_ACTOR",
  "GITHUB_EVENT_PATH", "GITLAB_CI", "CI_COMMIT_SHA", "CI_JOB_ID", "TWINE_USERNAME", "PGHOST", "PGUSER",
  "PGDATABASE", "XDG_RUNTIME_DIR", "HTTPS_PROXY", "NO_PROXY", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE",
  "VAULT_ADDR", "GOOGLE_CLOUD_PROJECT", "ARM_TENANT_ID", "ARM_SUBSCRIPTION_ID", "KRB5CCNAME",
  "PASSWORD_STORE_DIR", "POSTGRES_PASSWORD_FILE", "AUTHOR", "HF_HOME", "OPENAI_BASE_URL", "GPG_TTY",
  "COMPOSE_PROJECT_NAME", "CLASSPATH", "MANPATH",
];

test(`the default scrub drops ${mustGo.length} real credential names and keeps ${mustStay.length} real other names`, () => {
  assert.ok(mustGo.length >= 60 && mustStay.length >= 60);
  const { env, dropped } = buildChildEnv({ base: Object.fromEntries([...mustGo, ...mustStay].map((n) => [n, "v"])), ...defaults });
  const wronglyKept = mustGo.filter((name) => name in env);
  const wronglyDropped = mustStay.filter((name) => dropped.includes(name));
  assert.deepEqual({ wronglyKept, wronglyDropped }, { wronglyKept: [], wronglyDropped: [] });
});

test("word patterns: literal parts sit on word boundaries (_, other punctuation, camelCase), * spans anything", () => {
  const p = new NamePatterns(["*TOKEN*", "MY_COMPANY_*", "*_DSN", "EXACT"], "words");
  for (const yes of ["TOKEN", "X_TOKEN", "TOKEN_X", "a_token_b", "authToken", "npm_config_//r.org/:_authToken", "MY_COMPANY_X", "SENTRY_DSN", "exact"]) {
    assert.ok(p.matches(yes), yes);
  }
  for (const no of ["TOKENIZERS_PARALLELISM", "XTOKEN", "TOKENS", "MY_COMPANYX", "NOT_MY_COMPANY_X", "SENTRYDSN", "EXACT_NOT"]) {
    assert.ok(!p.matches(no), no);
  }
  // The same pattern as a plain glob (keep lists, --keep-env) matches substrings.
  assert.ok(new NamePatterns(["*TOKEN*"]).matches("TOKENIZERS_PARALLELISM"));
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
