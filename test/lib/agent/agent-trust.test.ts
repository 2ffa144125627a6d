// Another local user plants an agent where the victim's corral will look
// (issue 15, item 1): every command of the victim must refuse it, exit 125
// with one line, before sending anything. Needs root (two throw-away users).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { corralAs, createLocalUser, localUsersUnavailable, removeLocalUser, type LocalUser } from "../../support/local-users.ts";
import type { CliResult } from "../../support/corral-cli.ts";

const skip = localUsersUnavailable();
if (skip !== null) console.log(`# skipped: ${skip}`);

let attacker: LocalUser;
let victim: LocalUser;
const scratch: string[] = [];

before(async () => {
  if (skip !== null) return;
  attacker = await createLocalUser("atk");
  victim = await createLocalUser("vic");
});

after(async () => {
  if (skip !== null) return;
  for (const user of [attacker, victim]) if (user) await removeLocalUser(user);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A state dir (0700) owned by the attacker, inside a dir every user may traverse. */
function attackerDir(): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), "corral-trust-"));
  chmodSync(parent, 0o755);
  scratch.push(parent);
  const stateDir = path.join(parent, "state");
  mkdirSync(stateDir, { mode: 0o700 });
  chownSync(stateDir, attacker.uid, attacker.gid);
  return stateDir;
}

/** The attacker starts an agent on `stateDir` and opens it up as the issue describes (dir 0711, socket 0666). */
async function plantAgent(stateDir: string, open = true): Promise<void> {
  const started = await corralAs(attacker, ["agent", "start"], { CORRAL_STATE_DIR: stateDir });
  assert.equal(started.code, 0, `the attacker's agent did not start: ${started.stderr}`);
  if (open) {
    chmodSync(stateDir, 0o711);
    chmodSync(path.join(stateDir, "agent.sock"), 0o666);
  }
}

function assertRefused(r: CliResult, what: string, why: RegExp): void {
  assert.equal(r.code, 125, `${what}: expected exit 125, got ${r.code}; stderr: ${r.stderr}`);
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `${what}: one line expected, got: ${r.stderr}`);
  assert.match(lines[0] as string, /^corral: refusing the agent socket /, what);
  assert.match(lines[0] as string, why, what);
}

/** The attacker's agent holds no session and no job: nothing of the victim's reached it. */
async function assertNothingReached(stateDir: string): Promise<void> {
  // The attacker's own corral checks its dir too: give the files back, closed.
  chmodSync(stateDir, 0o700);
  chownSync(stateDir, attacker.uid, attacker.gid);
  chownSync(path.join(stateDir, "agent.sock"), attacker.uid, attacker.gid);
  const status = await corralAs(attacker, ["agent", "status", "--json"], { CORRAL_STATE_DIR: stateDir });
  assert.equal(status.code, 0, status.stderr);
  assert.equal(JSON.parse(status.stdout.toString()).sessions, 0);
}

const VICTIM_COMMANDS: readonly (readonly string[])[] = [
  ["pty", "open", "--name", "secret", "--", "sh"],
  ["pty", "list"],
  ["pty", "send", "secret", "hunter2", "--key", "Enter"],
  ["jobs"],
  ["run", "--bg", "--", "true"],
  ["agent", "status"],
  ["agent", "start"],
  ["connect"],
];

test("an agent planted in the dir CORRAL_STATE_DIR names is refused by every command", { skip: skip ?? false }, async () => {
  const stateDir = attackerDir();
  await plantAgent(stateDir);
  for (const args of VICTIM_COMMANDS) {
    const r = await corralAs(victim, args, { CORRAL_STATE_DIR: stateDir });
    assertRefused(r, args.join(" "), new RegExp(`owned by uid ${attacker.uid}, not by you \\(uid ${victim.uid}\\)`));
  }
  await assertNothingReached(stateDir);
});

test("an agent planted in /tmp/corral-UID is refused when XDG_RUNTIME_DIR is unset", { skip: skip ?? false }, async () => {
  const stateDir = `/tmp/corral-${victim.uid}`;
  rmSync(stateDir, { recursive: true, force: true });
  scratch.push(stateDir);
  mkdirSync(stateDir, { mode: 0o700 });
  chownSync(stateDir, attacker.uid, attacker.gid);
  await plantAgent(stateDir);
  for (const args of [["pty", "open", "--", "sh"], ["pty", "list"], ["jobs"]]) {
    const r = await corralAs(victim, args);
    assertRefused(r, args.join(" "), /owned by uid/);
  }
  await assertNothingReached(stateDir);
});

test("a listener run by another user is refused even when dir and socket file look like ours", { skip: skip ?? false }, async () => {
  // Stands for any way the files could end up ours while the process is not
  // (a race, a careless chown): the listener's credentials decide.
  const stateDir = attackerDir();
  await plantAgent(stateDir, false);
  chownSync(stateDir, victim.uid, victim.gid);
  chownSync(path.join(stateDir, "agent.sock"), victim.uid, victim.gid);
  for (const args of [["pty", "open", "--", "sh"], ["pty", "list"], ["agent", "status"]]) {
    const r = await corralAs(victim, args, { CORRAL_STATE_DIR: stateDir });
    assertRefused(r, args.join(" "), /the process listening on it is not yours/);
  }
  await assertNothingReached(stateDir);
});

test("another user's closed agent: status says permission denied, not 'no agent'", { skip: skip ?? false }, async () => {
  const stateDir = attackerDir();
  await plantAgent(stateDir, false);
  const r = await corralAs(victim, ["agent", "status"], { CORRAL_STATE_DIR: stateDir });
  assert.equal(r.code, 125, r.stderr + r.stdout.toString());
  assert.match(r.stderr, /^corral: permission denied connecting to the agent socket .*owned by uid \d+/);
  assert.doesNotMatch(r.stdout.toString(), /no agent/);
});

test("control: the victim's own agent in its own dir is used", { skip: skip ?? false }, async () => {
  const stateDir = path.join(victim.home, "state");
  assert.equal(existsSync(stateDir), false);
  const env = { CORRAL_STATE_DIR: stateDir };
  const opened = await corralAs(victim, ["pty", "open", "--name", "mine", "--", "sh"], env);
  assert.equal(opened.code, 0, opened.stderr);
  const listed = await corralAs(victim, ["pty", "list"], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout.toString(), /mine/);
  const stopped = await corralAs(victim, ["agent", "stop", "--force"], env);
  assert.equal(stopped.code, 0, stopped.stderr);
});
