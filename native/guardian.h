/*
 * corral-guardian: one supervisor per process tree (DESIGN.md section 2).
 * Shared declarations for the C files of the guardian.
 *
 * Man pages relied on: fork(2), execvp(3), pipe2(2), dup2(2), setsid(2),
 * setpgid(2), posix_openpt(3), grantpt(3), unlockpt(3), ptsname(3),
 * ioctl_tty(2) (TIOCSCTTY, TIOCSWINSZ, TIOCGPGRP), waitpid(2) (WUNTRACED,
 * WCONTINUED), prctl(2) (PR_SET_CHILD_SUBREAPER), pidfd_open(2),
 * pidfd_send_signal(2), proc(5) (/proc/PID/stat fields 4, 5, 6, 22),
 * unix(7), poll(2), splice(2), close_range(2), signal-safety(7).
 *
 * The wire protocol below is mirrored by lib/supervise/guardian/protocol.ts:
 * bump GUARDIAN_PROTOCOL_VERSION there and here if any of these change.
 */
#ifndef CORRAL_GUARDIAN_H
#define CORRAL_GUARDIAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GUARDIAN_PROTOCOL_VERSION 7

/* owner -> guardian */
#define REQ_AUTH 0x01        /* body: the token */
#define REQ_INPUT 0x02       /* body: bytes for the child's stdin / the PTY */
#define REQ_RESIZE 0x03      /* u32 id, u16 rows, u16 cols */
#define REQ_SIGNAL 0x04      /* u32 id, u8 target, u8 signo; output already readable is framed before the reply */
#define REQ_CLOSE_STDIN 0x05 /* u32 id */
#define REQ_TERMINATE 0x06   /* u32 id, u32 grace ms [, u8 first signal: 0 = SIGTERM] */
#define REQ_RELEASE 0x07     /* u32 id: exit, leaving the tree running */
#define REQ_SHUTDOWN 0x08    /* u32 id, u32 grace ms [, u8 first signal]: terminate, then exit */

/* guardian -> owner */
#define EV_WELCOME 0x41      /* JSON */
#define EV_STARTED 0x42      /* JSON */
#define EV_OUTPUT 0x43       /* u8 stream, bytes */
#define EV_EOF 0x44          /* u8 stream */
#define EV_STOPPED 0x45      /* JSON */
#define EV_CONTINUED 0x46    /* JSON */
#define EV_EXITED 0x47       /* JSON */
#define EV_SPAWN_FAILED 0x48 /* JSON */
#define EV_REPLY 0x49        /* JSON */
#define EV_RECEIPT 0x4a      /* JSON */
#define EV_ERROR 0x4b        /* JSON, then the connection is closed */
#define EV_TAIL 0x4c         /* u8 stream, bytes: the last bytes of a spilled stream */
#define EV_SPILLED 0x4d      /* JSON */
#define EV_FAULT 0x4e        /* JSON: a syscall on a supervision path failed (what, syscall, errno, stream) */
#define EV_BACKLOG 0x50      /* u8 stream, bytes: the raw tail kept while unowned (--adoptable), after a re-adoption welcome */
#define EV_PROGRESS 0x4f     /* u8 stream, u64 total, u64 line feeds, last bytes: a captured stream so far */
#define EV_INPUT_TAKEN 0x58  /* u32 bytes of input the child took (or that were dropped) since the last one:
                                the owner's credit, so input never queues ahead of its control frames (v4) */

/* The guardian's exit status when it ended its tree because it could not write to its owner (owner.c). */
#define GUARDIAN_EXIT_CANNOT_SERVE 3

#define SIGNAL_TARGET_CHILD 0
#define SIGNAL_TARGET_FOREGROUND 1
#define SIGNAL_TARGET_TREE 2

#define STREAM_STDOUT 1
#define STREAM_STDERR 2

#define OUTPUT_CHUNK (64 * 1024)

/* ---- a growable byte queue (outbound frames, pending child input) ---- */
struct bytes {
  unsigned char *data;
  size_t start, end, cap;
};
void bytes_append(struct bytes *b, const void *p, size_t n);
void frames_reserve(struct bytes *q, uint64_t body);
size_t bytes_len(const struct bytes *b);
void bytes_consume(struct bytes *b, size_t n);
void bytes_free(struct bytes *b);

/* ---- options from argv ---- */
enum io_mode { IO_PIPE, IO_INHERIT, IO_NULL, IO_MERGE };

struct options {
  int probe;
  int pty;
  enum io_mode io[3];
  int rows, cols;
  const char *socket_path;
  int ready_fd;
  int owner_fd; /* --owner-fd N: the owner's connection, inherited (a socket pair); no socket is listened on */
  const char *owner_connect; /* --owner-connect PATH: the owner's connection, made here to its private listener */
  const char *cwd;
  long linger_ms, drain_ms, grace_ms, connect_timeout_ms, kill_wait_ms;
  size_t max_payload;
  int new_pgid;
  const char *spill_path[3]; /* index by stream */
  uint64_t head_bytes[3], tail_bytes[3]; /* per stream (STREAM_STDOUT, STREAM_STDERR): --head-bytes/--tail-bytes set both (v6) */
  int64_t head_lines[3], tail_lines[3];  /* a captured stream's head ends after N lines, its tail is its last N lines; -1: none (v7) */
  int capture[3];    /* --capture-stdout/--capture-stderr: head + tail ring + lines kept here (capture.c) */
  int tee_fd[3];     /* --tee-stdout/--tee-stderr FD: a captured stream is also written there (collect --live), else -1 */
  int spill_direct;  /* --spill-direct: the spill file IS the child's stdout/stderr (no pipe) */
  int direct_fd[3];  /* set at start: the descriptor a direct stream gets, else -1 */
  char *const *argv;
  const char *file; /* --file: exec this path with argv as given (argv[0] kept), no PATH search */
  /* --adoptable (orphan.c): losing the owner does not end the child; a new owner re-adopts it */
  int adoptable;
  long orphan_wait_ms; /* 0: wait for a new owner as long as the child lives */
  long exit_wait_ms;   /* how long exit facts wait for a new owner once the child is gone */
  size_t orphan_buffer; /* raw tail kept per stream */
  const char *job_spill; /* --job-spill PATH (v5): every byte of stream 1 appended here, owned or not (job-spill.c) */
  char token[256];
};
int options_parse(struct options *o, int argc, char **argv);

/* ---- the supervised child ---- */
struct child {
  pid_t pid, pgid, sid;
  unsigned long long start_time;
  int in_fd;       /* write end of stdin pipe or the PTY master; -1 when none */
  int out_fd[3];   /* read ends by stream (1, 2); in pty mode out_fd[1] is the master */
  int master;      /* PTY master or -1 */
  int exec_errno;  /* errno of a failed exec, 0 otherwise */
};
int child_spawn(const struct options *o, struct child *c);
int pty_resize(int master, int rows, int cols);

/* ---- /proc and signals ---- */
int proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, pid_t *sid, unsigned long long *start, char *state);
int pidfd_open_compat(pid_t pid);
int pidfd_signal_compat(int pidfd, int sig);

/* ---- the census: who belongs to the tree ---- */
struct member {
  pid_t pid;
  unsigned long long start_time;
  int pidfd;
  int gone;
  int killed;
  int sig_errno; /* errno of the last failed signal (EPERM: not ours to signal) */
  int stop_sent; /* tree-stop.c: SIGSTOP was sent to this member */
};
struct census {
  struct member *m;
  size_t n, cap;
  int proc_ok;      /* the census is complete: /proc listed, or every descendant found through children files */
  int proc_listed;  /* opendir("/proc") worked */
  int list_errno;   /* why it did not */
  int overflow;
  int signal_errno; /* errno of a failed pidfd_send_signal that kill(2) then replaced (0: none) */
};
/* Adds every member not yet known; returns how many were added. */
size_t census_scan(struct census *cs, pid_t pgid, pid_t sid);
void census_signal(struct census *cs, int sig);
void census_signal_one(struct census *cs, size_t i, int sig);
int census_refresh(struct census *cs); /* marks gone ones; returns live count */
void census_free(struct census *cs);

/* ---- frames and JSON ---- */
void frame_put(struct bytes *q, int tag, const void *body, size_t n);
void frame_put2(struct bytes *q, int tag, unsigned char first, const void *body, size_t n);
void json_escape(char *out, size_t cap, const char *s);
uint32_t get_u32(const unsigned char *p);
uint16_t get_u16(const unsigned char *p);

/* ---- capability probe ---- */
int probe_run(void);

/* ---- monotonic clock ---- */
long long now_ms(void);
void sleep_ms(long ms); /* nanosleep, not poll: a pause that works when poll(2) does not */

/* ---- the event loop ---- */
int guardian_run(struct options *o);

#endif
