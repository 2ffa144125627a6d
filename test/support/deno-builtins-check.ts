// Run under Deno by test/cli/hot/deno-builtins.test.ts: each call Deno's
// hot bundles answer without node:fs or node:process
// (lib/runtime/deno/builtins/) made both ways, the stand-in's and the real
// module's, and compared. Prints one JSON object: { failures: [...] }.
import * as realFs from "node:fs";
import realProcess from "node:process";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ownFs } from "../../lib/runtime/deno/builtins/fs.ts";
import { ownProcess } from "../../lib/runtime/deno/builtins/process.ts";
import { ownUrl } from "../../lib/runtime/deno/builtins/url.ts";
import * as realUrl from "node:url";
import realOs from "node:os";
import { ownPath } from "../../lib/runtime/deno/builtins/path.ts";
import { ownOs } from "../../lib/runtime/deno/builtins/os.ts";

const dir = realProcess.argv[2]!;
const failures: string[] = [];

/** The outcome of `fn` as plain data: its value, or the error's fields Node gives. */
function outcome(fn: () => unknown): unknown {
  try {
    const value = fn();
    if (value instanceof Uint8Array) return { bytes: [...value], buffer: Buffer.isBuffer(value) };
    if (value !== null && typeof value === "object" && "isDirectory" in value) return stats(value as realFs.Stats);
    return { value };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { error: { message: e.message, code: e.code, errno: e.errno, syscall: e.syscall, path: e.path } };
  }
}

function stats(s: realFs.Stats): unknown {
  const kinds = [s.isFile(), s.isDirectory(), s.isSymbolicLink(), s.isSocket(), s.isFIFO(), s.isCharacterDevice(), s.isBlockDevice()];
  return { kinds, dev: s.dev, ino: s.ino, mode: s.mode, nlink: s.nlink, uid: s.uid, gid: s.gid, size: s.size, mtimeMs: Math.trunc(s.mtimeMs), mtime: Math.trunc(s.mtime.getTime()) };
}

function same(what: string, ours: () => unknown, theirs: () => unknown): void {
  const a = JSON.stringify(outcome(ours));
  const b = JSON.stringify(outcome(theirs));
  if (a !== b) failures.push(`${what}: stand-in ${a}, node:fs ${b}`);
}

const file = path.join(dir, "file.txt");
realFs.writeFileSync(file, "héllo\nwörld\n");
const binary = path.join(dir, "bytes.bin");
realFs.writeFileSync(binary, Uint8Array.from({ length: 256 }, (_, i) => i));
const link = path.join(dir, "link");
realFs.symlinkSync("file.txt", link);
const missing = path.join(dir, "no", "such");

for (const p of [file, dir, link, "/dev/null", missing, path.join(file, "inside")]) {
  for (const name of ["statSync", "lstatSync", "readlinkSync", "realpathSync", "existsSync"] as const) {
    same(`${name}(${p})`, () => ownFs[name](p), () => (realFs[name] as (p: string) => unknown)(p));
  }
  for (const options of [undefined, "utf8", "utf-8", "latin1", { encoding: "utf8" }, { encoding: "latin1" }, "base64", { flag: "r" }]) {
    same(`readFileSync(${p}, ${JSON.stringify(options)})`, () => ownFs.readFileSync(p, options), () => realFs.readFileSync(p, options as "utf8"));
  }
  same(`readdirSync(${p})`, () => (ownFs.readdirSync(p) as string[]).sort(), () => realFs.readdirSync(p).sort());
}
for (const options of [undefined, "latin1"]) same(`readFileSync(bytes, ${options})`, () => ownFs.readFileSync(binary, options), () => realFs.readFileSync(binary, options as "latin1"));
same("statSync with options", () => ownFs.statSync(file, { bigint: true }), () => realFs.statSync(file, { bigint: true }));
same("statSync(no file, { throwIfNoEntry: false })", () => ownFs.statSync(missing, { throwIfNoEntry: false }), () => realFs.statSync(missing, { throwIfNoEntry: false }));
same("fstatSync(0)", () => ownFs.fstatSync(0), () => realFs.fstatSync(0));
same("fstatSync(1)", () => ownFs.fstatSync(1), () => realFs.fstatSync(1));
same("fstatSync(999)", () => ownFs.fstatSync(999), () => realFs.fstatSync(999));

// accessSync(X_OK), as locateGuardian asks it, and the access modes of fs.constants.
const executable = path.join(dir, "run.sh");
realFs.writeFileSync(executable, "#!/bin/sh\n", { mode: 0o755 });
const userOnly = path.join(dir, "user-only.sh");
realFs.writeFileSync(userOnly, "#!/bin/sh\n", { mode: 0o700 });
const othersOnly = path.join(dir, "others-only.sh");
realFs.writeFileSync(othersOnly, "#!/bin/sh\n", { mode: 0o601 });
for (const p of [executable, userOnly, othersOnly, file, dir, link, missing, "/bin/sh"]) {
  for (const mode of [realFs.constants.X_OK, realFs.constants.R_OK, undefined]) {
    same(`accessSync(${p}, ${mode})`, () => ownFs.accessSync(p, mode), () => realFs.accessSync(p, mode));
  }
}
same("constants", () => ["F_OK", "R_OK", "W_OK", "X_OK", "O_RDONLY", "O_NONBLOCK", "S_IFMT"].map((k) => (ownFs.constants as Record<string, number>)[k]), () => ["F_OK", "R_OK", "W_OK", "X_OK", "O_RDONLY", "O_NONBLOCK", "S_IFMT"].map((k) => (realFs.constants as Record<string, number>)[k]));
same("'O_RDONLY' in constants", () => "O_RDONLY" in ownFs.constants, () => "O_RDONLY" in realFs.constants);

// fileURLToPath of the URLs a hot bundle meets, and of those Node refuses or treats apart.
for (const url of ["file:///work/dist/hot/deno/run.mjs", "file:///a%20b/%C3%A9.mjs", new URL("file:///x/y.mjs"), "file:///a%2Fb", "file://host/x", "https://example.com/x", "not a url", 7]) {
  same(`fileURLToPath(${String(url)})`, () => ownUrl.fileURLToPath(url), () => realUrl.fileURLToPath(url as string));
}

// path: the POSIX answers for every shape of path, and the calls handed on (other arguments).
type PathCall = (...args: unknown[]) => unknown;
const own = (name: string) => ownPath[name] as PathCall;
const real = (name: string) => (path as unknown as Record<string, PathCall>)[name] as PathCall;
const shapes = ["", "/", "//", "///", ".", "./", "..", "../", "a", "a/", "a//", "/a", "//a", "///a", "a/b", "a//b", "/a/b/", "//a//b//", "a/./b", "a/../b",
  "../a", "a/../..", "a/../", "/..", "/../a", "a/b/../../..", "/a/b/c/..", "./a/.", "foo/bar/baz/", ".hidden", "a/.b", "..a/b..", "é/ü", " /x", "a /b "];
for (const p of shapes) {
  for (const name of ["normalize", "dirname", "basename", "isAbsolute", "resolve", "join"]) same(`path.${name}(${JSON.stringify(p)})`, () => own(name)(p), () => real(name)(p));
}
for (const a of shapes) {
  for (const b of ["", "/", "b", "/b", "../b", "b/", "./b/..", ".."]) {
    for (const name of ["join", "resolve"]) same(`path.${name}(${JSON.stringify(a)}, ${JSON.stringify(b)})`, () => own(name)(a, b), () => real(name)(a, b));
  }
}
for (const args of [[], ["a", "b", "c"], ["/x", "y", "..", "z"], ["/x", "/y", "z/"], ["", ""], ["a", "", "/"], [7], ["a", 7], [null], ["a", "b"]] as unknown[][]) {
  for (const name of ["join", "resolve"]) same(`path.${name}(${JSON.stringify(args)})`, () => own(name)(...args), () => real(name)(...args));
}
for (const args of [[], [7], ["a/b", "b"], ["/a/b.txt", ".txt"]] as unknown[][]) {
  for (const name of ["normalize", "dirname", "basename", "isAbsolute"]) same(`path.${name}(${JSON.stringify(args)})`, () => own(name)(...args), () => real(name)(...args));
}
same("path.sep, delimiter", () => [ownPath.sep, ownPath.delimiter], () => [path.sep, path.delimiter]);

// os: the temporary directory by the environment's rule, and the signal table.
const denoEnv = (globalThis as unknown as { Deno: { env: { get(k: string): string | undefined; set(k: string, v: string): void; delete(k: string): void } } }).Deno.env;
const savedTmp = ["TMPDIR", "TMP", "TEMP"].map((key) => [key, denoEnv.get(key)] as const);
for (const [tmpdir, tmp, temp] of [["/x/", undefined, undefined], ["/", undefined, undefined], ["", "/t", undefined], [undefined, undefined, "/te//"], [undefined, undefined, undefined], ["rel/", "/t", "/te"], ["//", undefined, undefined]]) {
  for (const [key, value] of [["TMPDIR", tmpdir], ["TMP", tmp], ["TEMP", temp]] as const) {
    if (value === undefined) denoEnv.delete(key);
    else denoEnv.set(key, value);
  }
  same(`os.tmpdir() with ${JSON.stringify({ tmpdir, tmp, temp })}`, () => (ownOs.tmpdir as () => string)(), () => realOs.tmpdir());
}
for (const [key, value] of savedTmp) {
  if (value === undefined) denoEnv.delete(key);
  else denoEnv.set(key, value);
}
if ("constants" in ownOs) {
  const ownConstants = ownOs.constants as typeof realOs.constants;
  same("os.constants.signals (names, numbers, order)", () => JSON.stringify(ownConstants.signals), () => JSON.stringify(realOs.constants.signals));
  same("os.constants.errno (handed on)", () => ownConstants.errno, () => realOs.constants.errno);
  same("'priority' in os.constants", () => "priority" in ownConstants, () => "priority" in realOs.constants);
}

// writeSync to stdout: the test reads exactly these lines back.
ownFs.writeSync(1, "text line\n");
ownFs.writeSync(1, new TextEncoder().encode("xxbytes linexx"), 2, 10);
ownFs.writeSync(1, Buffer.from("\n"));
const descriptor = realFs.openSync(path.join(dir, "written"), "w");
ownFs.writeSync(descriptor, "to a file");
realFs.closeSync(descriptor);
if (realFs.readFileSync(path.join(dir, "written"), "utf8") !== "to a file") failures.push("writeSync to a file descriptor");

// process: the same answers, and the environment written through.
const sorted = (env: object) => Object.fromEntries(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)));
same("env", () => sorted(ownProcess.env), () => sorted(realProcess.env));
same("pid, platform, getuid", () => [ownProcess.pid, ownProcess.platform, ownProcess.getuid()], () => [realProcess.pid, realProcess.platform, realProcess.getuid!()]);
ownProcess.env.CORRAL_STAND_IN = "set";
if (realProcess.env.CORRAL_STAND_IN !== "set") failures.push("an env write reaches the real process.env");
const child = spawnSync("sh", ["-c", "printf %s \"$CORRAL_STAND_IN\""], { encoding: "utf8" });
if (child.stdout !== "set") failures.push(`an env write reaches a child: ${JSON.stringify(child.stdout)}`);
delete ownProcess.env.CORRAL_STAND_IN;
if (realProcess.env.CORRAL_STAND_IN !== undefined || "CORRAL_STAND_IN" in ownProcess.env) failures.push("an env delete reaches the real process.env");
same("cwd", () => ownProcess.cwd(), () => realProcess.cwd());
// One clock: a stand-in reading between two real ones lies between them.
const before = realProcess.hrtime.bigint();
const ours = ownProcess.hrtime.bigint();
const after = realProcess.hrtime.bigint();
if (!(before <= ours + 1000n && ours <= after + 1000n)) failures.push(`hrtime.bigint: ${before} <= ${ours} <= ${after} does not hold`);
const pairLength = (value: unknown) => (Array.isArray(value) ? value.length : value);
same("hrtime() (the real one's form)", () => pairLength(ownProcess.hrtime()), () => pairLength(realProcess.hrtime()));

// A forwarded signal's handler hears it with its name; once off, it hears nothing more.
const signalsHeard: string[] = [];
const onHup = (signal: string) => signalsHeard.push(signal);
const keep = () => {}; // the default disposition (death) must not come back while one handler is left
if (ownProcess.on("SIGHUP", onHup) !== ownProcess || ownProcess.on("SIGHUP", keep) !== ownProcess) failures.push("process.on does not return the process");
realProcess.kill(realProcess.pid, "SIGHUP");
const signalDeadline = Date.now() + 10_000;
while (signalsHeard.length === 0 && Date.now() < signalDeadline) await new Promise((resolve) => setTimeout(resolve, 10));
ownProcess.off("SIGHUP", onHup);
realProcess.kill(realProcess.pid, "SIGHUP");
await new Promise((resolve) => setTimeout(resolve, 100)); // a stray second delivery would land here
ownProcess.off("SIGHUP", keep);
if (JSON.stringify(signalsHeard) !== '["SIGHUP"]') failures.push(`SIGHUP heard as ${JSON.stringify(signalsHeard)}`);
let otherHeard = false;
ownProcess.on("beforeExit", () => (otherHeard = true)); // not a signal: the real process's
if (!(realProcess.listeners("beforeExit") as unknown[]).length) failures.push("process.on of another event reaches the real process");
void otherHeard;

ownProcess.exitCode = 7; // the test checks the exit status

console.log(JSON.stringify({ failures }));
