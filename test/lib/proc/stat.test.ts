// parseStat reads fields by position after the command name's last ")":
// a name may hold spaces and ")" itself, and a cut-off line gives NaN for
// what it lacks rather than a wrong number.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseStat } from "../../../lib/proc/stat.ts";

/** A stat line with `name` as its command name, fields numbered from 1 after the state. */
function statLine(name: string, state = "S"): string {
  const rest = Array.from({ length: 49 }, (_, i) => String(i + 1));
  return `4242 (${name}) ${state} ${rest.join(" ")}\n`;
}

test("parseStat: state, ppid, pgrp, session, tpgid and start time by position", () => {
  assert.deepEqual(parseStat(4242, statLine("cat")), { pid: 4242, state: "S", ppid: 1, pgrp: 2, session: 3, tpgid: 5, startTime: 19 });
});

test("parseStat: a command name with spaces and ') ' in it does not shift the fields", () => {
  for (const name of ["a b", "x) R 9 9", ") )", "(", "tmux: server"]) {
    assert.deepEqual(parseStat("4242", statLine(name, "T")), { pid: 4242, state: "T", ppid: 1, pgrp: 2, session: 3, tpgid: 5, startTime: 19 }, name);
  }
});

test("parseStat: a line cut short gives NaN for the fields it lacks, an empty one an empty state", () => {
  const short = parseStat(7, "7 (sh) R 1 2");
  assert.equal(short.state, "R");
  assert.equal(short.ppid, 1);
  assert.equal(short.pgrp, 2);
  assert.ok(Number.isNaN(short.session) && Number.isNaN(short.tpgid) && Number.isNaN(short.startTime));
  assert.equal(parseStat(7, "").state, "");
});

test("parseStat of this process agrees with the fields split by hand", { skip: process.platform !== "linux" && "no /proc here" }, () => {
  const text = readFileSync(`/proc/${process.pid}/stat`, "latin1");
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const stat = parseStat(process.pid, text);
  assert.deepEqual([stat.state, stat.ppid, stat.pgrp, stat.session, stat.tpgid, stat.startTime], [f[0], Number(f[1]), Number(f[2]), Number(f[3]), Number(f[5]), Number(f[19])]);
  assert.equal(stat.ppid, process.ppid);
});
