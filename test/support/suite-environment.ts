// The environment the suite's test processes get: what this machine's user
// set up must not change an outcome.
// - corral's own: its cache in ~/.cache/corral (a guardian built from other
//   sources, stale code caches) or a CORRAL_* variable in the caller's shell
//   (CORRAL_GUARDIAN=never, CORRAL_STATE_DIR) would make a test pass or fail
//   by the machine it runs on; the suite gets a corral cache dir of its own
//   and no CORRAL_* setting (the harness's own CORRAL_TEST_* are kept).
// - no XDG_CONFIG_HOME or XDG_DATA_HOME of the user's: corral reads its
//   config file from $XDG_CONFIG_HOME/corral when it is set (and fish, a
//   shell the tests hook, its config and history), so the home of its own
//   above did not keep a user's config file out.
// - none of the caller's terminal and locale settings: COLUMNS and LINES
//   describe the terminal `npm test` runs in, not one a test makes (tmux
//   passes them on, so less in a reference tmux drew 50 columns in an
//   80-column window); FORCE_COLOR and NO_COLOR change what the tests'
//   helper programs print; LANGUAGE and LC_* (LC_ALL=C overrode the
//   UTF-8 locale the tests' tmux and less need), and LANG is C.UTF-8, as
//   on this project's CI machine. A test that needs another sets its own. SHELL
//   is bash's (sh where there is no bash): tmux runs the command strings
//   the tests give it with $SHELL, and a fish user's `$?` there failed.
// - an XDG_RUNTIME_DIR of its own, so the default state dir is the suite's:
//   a test that reaches the default agent met the user's own agent when
//   one ran (an agent of an older build answered hot-bundles.test.ts's
//   bad flag with its old words), and could have touched its sessions.
// - a home of its own: the tests' interactive shells, vim, less and tmux read
//   the user's startup files. A ~/.bashrc that runs `pyenv init` costs every
//   bash 110 ms, and a test that kills a bash in the middle of its
//   `pyenv rehash` leaves pyenv's lock behind, after which every later
//   interactive bash waits 60 s in its rc file. What installs, commits and the
//   runtimes need of the user's home is linked in (linkedFromHome); tests
//   that need a setting name their own (CORRAL_CONFIG, XDG_CONFIG_HOME).
// - NODE_EXTRA_CA_CERTS held aside: Node parses that file at every start
//   (60-80 ms a start here) and the suite starts Node thousands of times, for no
//   TLS. npm, which may need it for its registry, gets it back
//   (npm-env.ts); the test of corral's own handling sets its own.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A copy of `env` for the suite, and the dir to remove once it is done. */
export function suiteEnvironment(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "corral-suite-home-"));
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith("CORRAL_") && !key.startsWith("CORRAL_TEST_")) continue;
    if (CALLER_TERMINAL.has(key) || key.startsWith("LC_")) continue;
    out[key] = value;
  }
  mkdirSync(path.join(dir, "cache"));
  out.CORRAL_CACHE_DIR = path.join(dir, "cache");
  out.SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
  out.LANG = "C.UTF-8";
  delete out.XDG_CONFIG_HOME;
  delete out.XDG_DATA_HOME;
  mkdirSync(path.join(dir, "runtime"), { mode: 0o700 });
  out.XDG_RUNTIME_DIR = path.join(dir, "runtime");
  const home = env.HOME;
  if (home !== undefined && home !== "") {
    out.HOME = path.join(dir, "home");
    for (const entry of linkedFromHome) {
      const target = path.join(home, entry);
      if (!existsSync(target)) continue;
      mkdirSync(path.dirname(path.join(out.HOME, entry)), { recursive: true });
      symlinkSync(target, path.join(out.HOME, entry));
    }
  }
  if (env.NODE_EXTRA_CA_CERTS !== undefined) {
    out[HELD_NODE_CERTS] = env.NODE_EXTRA_CA_CERTS;
    delete out.NODE_EXTRA_CA_CERTS;
  }
  return { env: out, dir };
}

/**
 * What the suite's home links from the user's: npm's config (a registry
 * mirror, `nodedir` for node-gyp) and cache (the install tests install
 * --prefer-offline), git's identity, Deno's and Bun's caches (empty ones
 * would send them to the network).
 */
const linkedFromHome = [".npmrc", ".npm", ".gitconfig", path.join(".cache", "deno"), ".bun"];

/** The caller's terminal and locale settings, left out (LC_* too). */
const CALLER_TERMINAL = new Set(["COLUMNS", "LINES", "FORCE_COLOR", "NO_COLOR", "LANGUAGE"]);

/** Where the suite keeps the caller's NODE_EXTRA_CA_CERTS for npm (npm-env.ts). */
export const HELD_NODE_CERTS = "CORRAL_TEST_NODE_EXTRA_CA_CERTS";

export function removeSuiteEnvironment(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
