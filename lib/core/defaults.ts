// Every default a user can meet, defined once: the config file's defaults
// (lib/config/schema.ts), the CLI's flags, the agent's and the library's all
// read them here, so `pty wait` with no --timeout and an agent asked without
// timeoutMs wait the same 60 s, and a run without --grace and a close without
// graceMs give the same 5 s.

/** Time between SIGTERM and SIGKILL, and the longest wait for output EOF after an exit (--grace, grace:). */
export const DEFAULT_GRACE_MS = 5000;
/** Bytes of each stream's tail kept in memory (--max-bytes, max-bytes:). */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/** Bytes of each stream's head kept in memory (--head-bytes, head-bytes:). */
export const DEFAULT_HEAD_BYTES = 64 * 1024;
/** A wait with no timeout (pty wait, pty send --wait-*, the agent's wait): long enough for slow programs, short enough to notice a hang. */
export const DEFAULT_WAIT_TIMEOUT_MS = 60_000;
/** The agent exits after this long with no session and no request (agent.idle-timeout). */
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;
/** Columns and rows of a session opened without a size. */
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;
/** TERM for a session's program: the emulator is an xterm. */
export const DEFAULT_TERM = "xterm-256color";
/**
 * Lines a session keeps above the visible grid unless told otherwise: what
 * tmux keeps (history-limit 2000), so growing the terminal brings back lines
 * that scrolled off. Memory: README "Terminal fidelity".
 */
export const DEFAULT_SCROLLBACK = 2000;
/** Lines kept above the visible grid at most, whatever a caller asks for. */
export const MAX_SCROLLBACK = 10_000;
/** `pty exec --interrupt`: time a command gets after Ctrl-C to reach the shell's prompt (--grace). */
export const DEFAULT_INTERRUPT_GRACE_MS = 2000;
