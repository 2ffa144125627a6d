// Which process has the terminal, and whether it is waiting for the person
// at it (DESIGN.md 4.8, `pty wait --ready`). The kernel knows: the session
// leader's /proc/PID/stat names the terminal's foreground process group
// (tpgid, as tcgetpgrp(3) would); that group's leader is blocked in a read,
// select or poll (/proc/PID/syscall, else /proc/PID/wchan) with the terminal
// as its standard input. See proc(5). Linux only: elsewhere nothing is known
// (null), and a program that polls its input with a timeout in a busy loop
// looks waiting only while it is inside the poll.
// The files are read synchronously: procfs answers from kernel memory, never
// from a disk, in tens of microseconds, while the promise API pays four
// thread-pool hops a file (open, fstat, read, close): every screen reply
// carries the foreground, and that cost 0.7-2.5 ms of a screen round trip on
// a loaded 2-core machine, against about 0.1 ms this way (issue 9). Each
// session keeps its files open (ForegroundReader, lib/proc/proc-file.ts):
// one pread a file instead of open, fstat, read and close.
import { readlinkSync } from "node:fs";
import process from "node:process";
import { ProcFile } from "../proc/proc-file.ts";
import { parseStat, type ProcStat } from "../proc/stat.ts";

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

// Of those, the ones whose first argument is the descriptor read: a read
// counts only when that descriptor is the terminal. A shell reading a
// command substitution's pipe (`x=$(slow)`, as pyenv's shims do before they
// exec python) is blocked in read(2) with the terminal as its stdin, yet
// nobody is asked anything. For select, poll and epoll the descriptors sit
// in the program's memory, which another process cannot read without ptrace
// rights: those still count.
const READ_SYSCALLS: Readonly<Record<string, ReadonlySet<number>>> = {
  x64: new Set([0, 19]),
  arm64: new Set([63, 65]),
};

// Kernel functions such a wait sleeps in, when the syscall cannot be read.
const WAITING_WCHAN = /^(n_tty_read|wait_woken|poll_schedule_timeout|do_select|do_sys_poll|ep_poll|core_sys_select)/;

/** What /proc/PID/fd/N links to for a terminal. */
const TERMINAL_PATH = /^\/dev\/(pts\/|tty)/;

/** The files of one process kept open: the foreground group's leader changes, its files with it. */
class ProcessFiles {
  readonly stat: ProcFile;
  readonly cmdline: ProcFile;
  readonly syscall: ProcFile;

  constructor(readonly pid: number) {
    this.stat = new ProcFile(`/proc/${pid}/stat`);
    this.cmdline = new ProcFile(`/proc/${pid}/cmdline`);
    this.syscall = new ProcFile(`/proc/${pid}/syscall`);
  }

  readStat(): ProcStat | undefined {
    const text = this.stat.read();
    return text === null ? undefined : parseStat(this.pid, text);
  }

  close(): void {
    this.stat.close();
    this.cmdline.close();
    this.syscall.close();
  }
}

/** A session's view of its terminal's foreground process; close() when the session ends. */
export class ForegroundReader {
  readonly #leader: ProcessFiles | undefined;
  #foreground: ProcessFiles | undefined;

  constructor(leader: number) {
    if (process.platform === "linux" && leader > 0) this.#leader = new ProcessFiles(leader);
  }

  /** The foreground process of the terminal whose session leader this reader follows; null when unknown. */
  read(): Foreground | null {
    const leader = this.#leader;
    if (leader === undefined) return null;
    const leaderStat = leader.readStat();
    const tpgid = leaderStat?.tpgid ?? 0;
    if (!(tpgid > 0)) return null;
    let files = leader;
    let stat = leaderStat;
    if (tpgid !== leader.pid) {
      if (this.#foreground?.pid !== tpgid) {
        this.#foreground?.close();
        this.#foreground = new ProcessFiles(tpgid);
      }
      files = this.#foreground;
      stat = files.readStat();
    }
    if (stat === undefined) return { pid: tpgid, argv: [], waitingForInput: null };
    const argv = (files.cmdline.read("utf8") ?? "").split("\0");
    if (argv.at(-1) === "") argv.pop();
    return { pid: tpgid, argv, waitingForInput: waitingForInput(files, stat.state) };
  }

  /** Lets go of the kept descriptors (the reader can still read: it opens them again). */
  close(): void {
    this.#leader?.close();
    this.#foreground?.close();
    this.#foreground = undefined;
  }
}

function waitingForInput(files: ProcessFiles, state: string): boolean | null {
  const pid = files.pid;
  if (state !== "S") return state === "" ? null : false;
  let input: string;
  try {
    input = readlinkSync(`/proc/${pid}/fd/0`);
  } catch {
    return null;
  }
  if (!TERMINAL_PATH.test(input)) return false;
  const syscall = files.syscall.read()?.trim();
  const known = WAITING_SYSCALLS[process.arch];
  if (syscall !== undefined && syscall !== "running" && known !== undefined) {
    const [name, firstArgument] = syscall.split(" ");
    const number = Number(name);
    if (Number.isInteger(number)) {
      if (!known.has(number)) return false;
      if (READ_SYSCALLS[process.arch]?.has(number) !== true) return true;
      return readsTerminal(pid, firstArgument, input);
    }
  }
  const wchanFile = new ProcFile(`/proc/${pid}/wchan`); // rarely read: where /proc/PID/syscall is not
  const wchan = wchanFile.read()?.trim();
  wchanFile.close();
  if (wchan === undefined || wchan === "" || wchan === "0") return null;
  return WAITING_WCHAN.test(wchan);
}

/**
 * Whether the descriptor a read(2) is blocked on (hex, from /proc/PID/syscall)
 * is a terminal: the standard input `input`, or `/dev/tty` opened anew (as
 * less and vipe read keys while their stdin is something else).
 */
function readsTerminal(pid: number, fdArgument: string | undefined, input: string): boolean | null {
  const fd = Number(fdArgument);
  if (!Number.isInteger(fd) || fd < 0) return null;
  if (fd === 0) return true;
  try {
    const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    return link === input || TERMINAL_PATH.test(link);
  } catch {
    return null;
  }
}
