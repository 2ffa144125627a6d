// Run under Deno by test/cli/hot/deno-builtins.test.ts: each call Deno's
// hot bundles answer without node:fs or node:process
// (cli/hot/deno-builtins/) made both ways, the stand-in's and the real
// module's, and compared. Prints one JSON object: { failures: [...] }.
import * as realFs from "node:fs";
import realProcess from "node:process";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ownFs } from "../../cli/hot/deno-builtins/fs.ts";
import { ownProcess } from "../../cli/hot/deno-builtins/process.ts";

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
ownProcess.exitCode = 7; // the test checks the exit status

console.log(JSON.stringify({ failures }));
