/*
 * The guardian's whole state, shared by the files of its event loop
 * (loop.c: poll and timers; owner.c: the owner's connection and requests;
 * terminate.c: the census-based terminate; streams.c: child output and
 * input, spill files).
 */
#ifndef CORRAL_GUARDIAN_STATE_H
#define CORRAL_GUARDIAN_STATE_H

#include "guardian.h"

/* Past this many queued outbound bytes, child output is not read (backpressure). */
#define OUT_LIMIT (4u * 1024 * 1024)
#define MAX_WAITERS 64

/* The raw tail of a stream (orphan.c). */
struct tail_ring {
  unsigned char *buf;
  size_t len, pos;
};

struct stream {
  int fd;           /* read end, or the PTY master for stream 1; -1 when closed */
  int spill_fd;     /* spill file (read-write) or -1 */
  int spill_failed; /* errno of a failed spill write, 0 otherwise */
  uint64_t total;   /* bytes read from the child so far (direct spill: file size last reported) */
  uint64_t head_sent; /* direct spill: head bytes already framed */
  uint64_t spilled;   /* bytes the spill file holds (all of the stream before a failure) */
  /* After a spill failure the tail is kept here instead (the file is incomplete): a ring of tail_bytes. */
  unsigned char *ring;
  uint64_t ring_len, ring_pos;
  int eof;
  struct tail_ring kept; /* --adoptable: the last bytes read, for a new owner */
  uint64_t unowned;      /* bytes read while no owner held the guardian */
  struct capture *capture; /* --capture-stdout/--capture-stderr (capture.c), else NULL */
};

struct guardian {
  struct options *o;
  int listen_fd;
  int sig_pipe[2];

  /* the owner's connection (at most one; an unauthenticated one counts) */
  int conn_fd;
  int authed;
  int closing;       /* after a protocol error: flush, half-close, drop what still comes, then close */
  int closing_shut;  /* our side is shut down (SHUT_WR): the owner has every frame and an EOF */
  int peer_done;     /* the owner's EOF (or an error) was read */
  long long conn_deadline; /* auth deadline, or the flush deadline while closing */
  unsigned char *rbuf;
  size_t rlen;
  struct bytes out;
  size_t head_left; /* bytes of the frame at the queue's head not yet sent */
  int ever_owned;
  long long connect_deadline, linger_deadline;
  long long hold_deadline; /* ownerless after an uncertain terminate: children still parented here until then (terminate.c) */

  /* the child */
  struct child c;
  int started, spawn_failed;
  struct stream s[3];
  struct bytes in;
  uint32_t in_unreported; /* input taken since the last EV_INPUT_TAKEN */
  int stdin_closed;
  uint32_t close_ids[MAX_WAITERS];
  int n_close_ids;
  int reaped, status, exited_sent, suppress_stops;
  long long drain_deadline;

  /* terminate */
  int term_active, exit_after_term, term_forced;
  int term_signal; /* the first signal of this terminate (SIGTERM unless a forwarded one) */
  long long term_deadline, last_scan;
  struct census cs;
  uint32_t term_ids[MAX_WAITERS];
  int n_term_ids;
  int quit;
  int subreaper;             /* PR_SET_CHILD_SUBREAPER took: every member of the tree descends from us */
  int stopped;                /* the child is stopped (last WUNTRACED/WCONTINUED event) */
  long long orphan_deadline;  /* --adoptable and unowned: when the wait for a new owner ends (0: none) */

  /* faults already reported (by their `what`, a string literal): each is said once */
  const char *faults_sent[16];
  int n_faults_sent;
  int wait_errno;      /* waitpid failed while the child was unreaped */
  long long wait_failing_since;
  int sig_pipe_broken; /* the self-pipe could not be read: signals are taken from flags, on a timer */
  int poll_failures;   /* consecutive failed polls */
  /* the socket path watched (loop.c): an unowned guardian whose socket is gone can never be found again */
  unsigned long long socket_ino; /* of the socket bound, 0 when none */
  long long socket_check_at;     /* next look at the path */
  long long socket_gone_since;   /* 0: present */
  int cannot_serve;    /* errno of a failed write to the owner that was not the owner's going: the tree is ended */

  /* --job-spill (job-spill.c) */
  int job_spill_fd;          /* -1: none, or it failed */
  int job_spill_errno;       /* why the file stopped taking bytes (0: it did not) */
  uint64_t job_spilled;      /* bytes the file holds: all of stream 1 unless it failed */
};

/* owner.c */
void owner_accept(struct guardian *g);
/* How long an ownerless guardian keeps children it cannot name (terminate.c). */
#define HOLD_MS 30000
/* A child of ours (or adopted: we are the subreaper) still exists, exited or not. */
int has_children(const struct guardian *g);
/* --owner-fd: `fd` (inherited, already connected) is the owner's connection; -1 when it cannot be set up. */
int owner_attach(struct guardian *g, int fd);
/* --owner-connect: a connected, close-on-exec socket to the owner's listener at `path`; -1 with errno set. */
int owner_dial(const char *path);
void owner_readable(struct guardian *g);
void owner_flush(struct guardian *g);
void owner_lost(struct guardian *g);
void owner_discard(struct guardian *g);         /* closing: drop the owner's input until its EOF */
void owner_closing_flushed(struct guardian *g); /* closing, all written: half-close, or close */
void owner_reply(struct guardian *g, uint32_t id, const char *code, const char *message);
void owner_json(struct guardian *g, int tag, const char *json);
/* A syscall on a supervision path failed: said once per `what` (a string literal); stream 0 when none. */
void owner_fault(struct guardian *g, const char *what, const char *syscall, int err, int stream);

/* streams.c */
void streams_open_spills(struct guardian *g);
void spill_direct_summary(struct guardian *g, int final_eof);
void stream_readable(struct guardian *g, int i, int discard);
void streams_catch_up(struct guardian *g); /* frames what the child already wrote, before a reply */
void stdin_writable(struct guardian *g);
void stdin_queue(struct guardian *g, const unsigned char *p, size_t n);
void stdin_close(struct guardian *g, uint32_t id);
void stream_eof(struct guardian *g, int i);
void stream_spill_write(struct guardian *g, struct stream *s, const unsigned char *p, size_t n);
void stream_spill_fail(struct guardian *g, struct stream *s, int err, const unsigned char *rest, size_t n);

/* capture.c: head, tail ring and line count kept here instead of framing every byte */
void capture_open(struct guardian *g, int i);
int capture_readable(struct guardian *g, int i, int discard); /* 0: not a captured stream */
int capture_finish(struct guardian *g, int i);                /* 0: not captured, or spill_finish's to do */
void capture_free(struct stream *s);
uint64_t capture_line_feeds(struct stream *s); /* counts what was spliced and not counted yet */

/* lines.c: line feeds counted, and --head-lines/--tail-lines applied to a captured stream. */
uint64_t count_line_feeds(const unsigned char *p, size_t n);
/* Bytes of p[0..n) up to and including the line feed that makes *seen reach `lines` (counted on), else SIZE_MAX. */
size_t head_lines_cut(const unsigned char *p, size_t n, int64_t lines, uint64_t *seen);
/* Bytes to skip at the start of a kept tail of `len` bytes to leave its last `lines` lines (-1: 0; fewer lines: 0). */
uint64_t ring_lines_skip(const unsigned char *ring, size_t cap, size_t at, uint64_t len, int64_t lines);
uint64_t file_lines_skip(int fd, uint64_t file_at, uint64_t len, int64_t lines);
void capture_timers(struct guardian *g, long long now); /* a progress event that is due */
long long capture_due(const struct guardian *g);         /* when the next is due, 0: none */
int capture_tee_waiting(const struct guardian *g, int i); /* the tee's fd while bytes wait for it, else -1 */
void capture_tee_writable(struct guardian *g, int i);
void capture_settle(struct guardian *g);                 /* before a terminate's receipt: read what the tree left */

/* terminate.c */
void terminate_start(struct guardian *g, long grace_ms, int has_id, uint32_t id, int exit_after, int first_signal);
void terminate_step(struct guardian *g);
void signal_target(struct guardian *g, uint32_t id, int target, int signo);
void tree_scan(struct guardian *g, struct census *cs);

/* tree-stop.c: SIGSTOP and SIGCONT to the whole tree, in order */
void tree_stop(struct guardian *g, struct census *cs);
void tree_continue(struct census *cs);

/* orphan.c */
int orphaned(const struct guardian *g);
void orphan_keep(struct guardian *g, int i, const unsigned char *p, size_t n);
int orphan_lost(struct guardian *g); /* 1 when the guardian stays for a new owner */
void orphan_child_exited(struct guardian *g);
void orphan_timer(struct guardian *g, long long now);
size_t orphan_welcome(struct guardian *g, char *json, size_t cap);
void orphan_replay(struct guardian *g);
void orphan_free(struct guardian *g);

/* job-spill.c: a job's spill, written here so that no owner's death costs a byte */
void job_spill_open(struct guardian *g);
void job_spill_write(struct guardian *g, const unsigned char *p, size_t n);
size_t job_spill_welcome(const struct guardian *g, char *json, size_t cap);
void job_spill_close(struct guardian *g);

/* socket-watch.c: an unowned guardian whose socket is gone ends its tree */
void socket_watch_start(struct guardian *g);
long long socket_watch_due(const struct guardian *g, long long now); /* 0: nothing to watch */
void socket_watch(struct guardian *g, long long now);

/* loop.c */
void child_start(struct guardian *g);
void reap(struct guardian *g);
void send_exited(struct guardian *g);

#endif
