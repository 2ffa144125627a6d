// Which process has the terminal, and whether it is waiting for the person
// at it (DESIGN.md 4.8, `pty wait --ready`). The kernel knows: the session
// leader's /proc/PID/stat names the terminal's foreground process group
// (tpgid, as tcgetpgrp(3) would); that group's leader is blocked in a read,
// select or poll (/proc/PID/syscall, else /proc/PID/wchan) with the terminal
// as its standard input. See proc(5). Linux only: elsewhere nothing is known
// (null), and a program that polls its input with a timeout in a busy loop
// looks waiting only while it is inside the poll.
import { readFile, readlink } from "node:fs/promises";
import process from "node:process";

/** The terminal's foreground process; `waitingForInput` null when /proc does not say. */
export interface Foreground {
  readonly pid: number;
  readonly argv: readonly string[];
  readonly waitingForInput: boolean | null;
}

// System calls a program blocks in while it waits for its terminal: read,
// readv, select, poll and their variants, epoll waits.
const WAITING_SYSCALLS: Readonly<Record<string, ReadonlySet<number>>> = {
  x64: new Set([0, 19, 7, 23, 270, 271, 232, 281, 441]),
  arm64: new Set([63, 65, 72, 73, 22, 441]),
};

// Kernel functions such a wait sleeps in, when the syscall cannot be read.
const WAITING_WCHAN = /^(n_tty_read|wait_woken|poll_schedule_timeout|do_select|do_sys_poll|ep_poll|core_sys_select)/;

/** Fields after the command name in /proc/PID/stat (state is [0]). */
async function statFields(pid: number): Promise<string[] | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

async function text(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/** The foreground process of the terminal whose session leader is `leader`; null when unknown. */
export async function readForeground(leader: number): Promise<Foreground | null> {
  if (process.platform !== "linux" || !(leader > 0)) return null;
  const lead = await statFields(leader);
  const tpgid = Number(lead?.[5]);
  if (lead === null || !(tpgid > 0)) return null;
  const fields = await statFields(tpgid);
  if (fields === null) return { pid: tpgid, argv: [], waitingForInput: null };
  const argv = ((await text(`/proc/${tpgid}/cmdline`)) ?? "").split("\0");
  if (argv.at(-1) === "") argv.pop();
  return { pid: tpgid, argv, waitingForInput: await waitingForInput(tpgid, fields[0] ?? "") };
}

async function waitingForInput(pid: number, state: string): Promise<boolean | null> {
  if (state !== "S") return state === "" ? null : false;
  let input: string;
  try {
    input = await readlink(`/proc/${pid}/fd/0`);
  } catch {
    return null;
  }
  if (!/^\/dev\/(pts\/|tty)/.test(input)) return false;
  const syscall = (await text(`/proc/${pid}/syscall`))?.trim();
  const known = WAITING_SYSCALLS[process.arch];
  if (syscall !== undefined && syscall !== "running" && known !== undefined) {
    const number = Number(syscall.split(" ")[0]);
    if (Number.isInteger(number)) return known.has(number);
  }
  const wchan = (await text(`/proc/${pid}/wchan`))?.trim();
  if (wchan === undefined || wchan === "" || wchan === "0") return null;
  return WAITING_WCHAN.test(wchan);
}
