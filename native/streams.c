/*
 * The child's output and input. Output is framed for the owner as it
 * arrives, or, for a stream with a spill file (collect's fast path), the
 * first head bytes are framed and everything is moved pipe -> file by
 * splice(2) without passing through this process's memory; at EOF the
 * last tail bytes are read back from the file (page cache) and sent with
 * the total count. Input is queued and written as the child accepts it;
 * close-stdin is acknowledged only after every byte before it was written.
 *
 * Man pages: splice(2), pread(2), read(2), write(2), ioctl_tty(2).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "state.h"

int pty_resize(int master, int rows, int cols) {
  struct winsize ws = {(unsigned short)rows, (unsigned short)cols, 0, 0};
  return ioctl(master, TIOCSWINSZ, &ws);
}

/*
 * Empties a spill file, as O_TRUNC would, but only when it holds something.
 * On ext4 any truncate to 0 bytes (O_TRUNC too, even of an empty file) makes
 * the file's last close allocate and start writing back everything written
 * since (auto_da_alloc): 0.3-0.4 s a GiB spent in close(2), which `cat > F`
 * on a new file never pays. collect creates the file empty just before (so
 * a bad path is a usage error), so here it usually is empty already.
 */
static int spill_truncate(int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size == 0)) return 0;
  return ftruncate(fd, 0);
}

void streams_open_spills(struct guardian *g) {
  for (int i = 1; i < 3; i++) {
    g->s[i].spill_fd = -1;
    if (g->o->spill_path[i] == NULL) continue;
    /* umask applies, as in a shell redirection; a symlink planted at the path is refused, not followed */
    g->s[i].spill_fd = open(g->o->spill_path[i], O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (g->s[i].spill_fd >= 0 && spill_truncate(g->s[i].spill_fd) != 0) {
      g->s[i].spill_failed = errno;
      close(g->s[i].spill_fd);
      g->s[i].spill_fd = -1;
    }
    if (g->s[i].spill_fd < 0) g->s[i].spill_failed = errno;
    else if (g->o->spill_direct) g->o->direct_fd[i] = g->s[i].spill_fd;
  }
  for (int i = 1; i < 3; i++) capture_open(g, i);
}

/*
 * Direct spill: the child wrote into the file itself (as fast as `cat > F`:
 * no pipe, no copy here). Its head, tail and size are read back from the
 * file: at the child's exit, and again after a terminate if it grew (a
 * grandchild kept writing). The last `spilled` event is authoritative; the
 * tail frames just before it are its tail.
 */
void spill_direct_summary(struct guardian *g, int final_eof) {
  for (int i = 1; i < 3; i++) {
    struct stream *s = &g->s[i];
    if (g->o->direct_fd[i] < 0 || s->spill_fd < 0) continue;
    struct stat st;
    if (fstat(s->spill_fd, &st) != 0) continue;
    uint64_t size = (uint64_t)st.st_size;
    if (!final_eof && size == s->total) continue;
    s->total = size;
    unsigned char buf[OUTPUT_CHUNK];
    uint64_t head_end = size < g->o->head_bytes[i] ? size : g->o->head_bytes[i];
    while (s->head_sent < head_end) {
      size_t want = head_end - s->head_sent < sizeof buf ? (size_t)(head_end - s->head_sent) : sizeof buf;
      ssize_t r = pread(s->spill_fd, buf, want, (off_t)s->head_sent);
      if (r <= 0) break;
      frame_put2(&g->out, EV_OUTPUT, (unsigned char)i, buf, (size_t)r);
      s->head_sent += (uint64_t)r;
    }
    uint64_t tail = size < g->o->tail_bytes[i] ? size : g->o->tail_bytes[i];
    frames_reserve(&g->out, tail);
    for (uint64_t off = size - tail; off < size;) {
      size_t want = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
      ssize_t r = pread(s->spill_fd, buf, want, (off_t)off);
      if (r <= 0) break;
      frame_put2(&g->out, EV_TAIL, (unsigned char)i, buf, (size_t)r);
      off += (uint64_t)r;
    }
    char json[128];
    snprintf(json, sizeof json, "{\"stream\":%d,\"total\":%llu,\"error\":null,\"direct\":true}", i, (unsigned long long)size);
    owner_json(g, EV_SPILLED, json);
    if (final_eof && !s->eof) {
      s->eof = 1;
      unsigned char b = (unsigned char)i;
      frame_put(&g->out, EV_EOF, &b, 1);
    }
  }
}

/* The last tail_bytes[i] of the stream, kept in memory once the spill file stopped taking them. */
static void ring_add(struct guardian *g, struct stream *s, const unsigned char *p, size_t n) {
  int i = (int)(s - g->s);
  uint64_t cap = g->o->tail_bytes[i];
  if (s->ring == NULL || cap == 0 || n == 0) return;
  if (n >= cap) {
    memcpy(s->ring, p + (n - cap), (size_t)cap);
    s->ring_pos = 0;
    s->ring_len = cap;
    return;
  }
  size_t first = (size_t)(cap - s->ring_pos) < n ? (size_t)(cap - s->ring_pos) : n;
  memcpy(s->ring + s->ring_pos, p, first);
  memcpy(s->ring, p + first, n - first);
  s->ring_pos = (s->ring_pos + n) % cap;
  s->ring_len = s->ring_len + n > cap ? cap : s->ring_len + n;
}

/*
 * The spill file cannot take more (ENOSPC, EIO, a quota): the child must
 * not notice. Its output keeps being read; the tail is kept here, seeded
 * from what the file already holds (page cache), and sent at EOF with the
 * error, so the owner shows the right tail and says the file is incomplete.
 */
void stream_spill_fail(struct guardian *g, struct stream *s, int err, const unsigned char *rest, size_t n) {
  if (s->spill_failed) return;
  s->spill_failed = err;
  int i = (int)(s - g->s);
  uint64_t cap = g->o->tail_bytes[i];
  if (cap > 0) {
    s->ring = malloc((size_t)cap);
    if (s->ring == NULL) abort(); /* out of memory: nothing sensible is left to do */
    uint64_t k = s->spilled < cap ? s->spilled : cap;
    uint64_t got = 0;
    while (got < k) {
      ssize_t r = pread(s->spill_fd, s->ring + got, (size_t)(k - got), (off_t)(s->spilled - k + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      got += (uint64_t)r;
    }
    s->ring_len = got;
    s->ring_pos = got % cap;
    /* Bytes the file lost to a failed read-back cannot be shown: the tail then starts later. */
    if (got < k) s->ring_len = s->ring_pos = 0;
  }
  ring_add(g, s, rest, n);
}

void stream_spill_write(struct guardian *g, struct stream *s, const unsigned char *p, size_t n) {
  if (s->spill_failed) { ring_add(g, s, p, n); return; }
  while (n > 0) {
    ssize_t w = write(s->spill_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) { stream_spill_fail(g, s, w < 0 ? errno : ENOSPC, p, n); return; }
    s->spilled += (uint64_t)w;
    p += w;
    n -= (size_t)w;
  }
}

/* Sends the ring's bytes, oldest first, as the stream's tail. */
static void ring_send(struct guardian *g, int i) {
  struct stream *s = &g->s[i];
  uint64_t cap = g->o->tail_bytes[i];
  uint64_t at = s->ring_len < cap ? 0 : s->ring_pos;
  uint64_t len = s->ring_len; /* never line-limited: --tail-lines needs a capture, whose ring is capture.c's */
  frames_reserve(&g->out, len);
  for (uint64_t left = len; left > 0;) {
    size_t run = (size_t)(cap - at) < left ? (size_t)(cap - at) : (size_t)left;
    if (run > OUTPUT_CHUNK) run = OUTPUT_CHUNK;
    frame_put2(&g->out, EV_TAIL, (unsigned char)i, s->ring + at, run);
    at = (at + run) % cap;
    left -= run;
  }
}

/* End of a spilled stream: the tail from the file, then the totals. */
static void spill_finish(struct guardian *g, int i) {
  struct stream *s = &g->s[i];
  int tail_sent = 0;
  if (s->spill_fd < 0) {
    if (s->spill_failed == 0) return;
  } else if (s->spill_failed) {
    ring_send(g, i); /* the file is incomplete: the tail kept in memory is the stream's */
    tail_sent = s->ring != NULL || g->o->tail_bytes[i] == 0;
  } else {
    uint64_t tail = s->total < g->o->tail_bytes[i] ? s->total : g->o->tail_bytes[i];
    /* --tail-lines: only the last N lines of it, found reading the file backwards (lines.c). */
    if (g->o->tail_lines[i] >= 0) tail -= file_lines_skip(s->spill_fd, s->total - tail, tail, g->o->tail_lines[i]);
    unsigned char buf[OUTPUT_CHUNK];
    tail_sent = 1;
    frames_reserve(&g->out, tail);
    for (uint64_t off = s->total - tail; off < s->total;) {
      size_t want = s->total - off < sizeof buf ? (size_t)(s->total - off) : sizeof buf;
      ssize_t r = pread(s->spill_fd, buf, want, (off_t)off);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) { s->spill_failed = r < 0 ? errno : EIO; tail_sent = 0; break; }
      frame_put2(&g->out, EV_TAIL, (unsigned char)i, buf, (size_t)r);
      off += (uint64_t)r;
    }
  }
  if (s->spill_fd >= 0) close(s->spill_fd);
  s->spill_fd = -1;
  free(s->ring);
  s->ring = NULL;
  char json[512], esc[256], counted[64] = "";
  json_escape(esc, sizeof esc, s->spill_failed ? strerror(s->spill_failed) : "");
  /* A captured stream was read, not spliced: its lines were counted on the way (capture.c). */
  if (s->capture != NULL) snprintf(counted, sizeof counted, ",\"lineFeeds\":%llu", (unsigned long long)capture_line_feeds(s));
  snprintf(json, sizeof json, "{\"stream\":%d,\"total\":%llu,\"error\":%s%s%s,\"errno\":%d,\"tailSent\":%s%s}", i,
           (unsigned long long)s->total, s->spill_failed ? "\"" : "", s->spill_failed ? esc : "null",
           s->spill_failed ? "\"" : "", s->spill_failed, tail_sent ? "true" : "false", counted);
  owner_json(g, EV_SPILLED, json);
}

void stream_eof(struct guardian *g, int i) {
  struct stream *s = &g->s[i];
  s->eof = 1;
  int fd = s->fd;
  s->fd = -1;
  if (fd == g->c.master) {
    g->c.master = -1;
    g->c.in_fd = -1;
  }
  close(fd);
  if (!capture_finish(g, i)) spill_finish(g, i);
  capture_free(s);
  unsigned char b = (unsigned char)i;
  frame_put(&g->out, EV_EOF, &b, 1);
  if (g->o->pty && g->reaped && !g->exited_sent) send_exited(g);
}

/* Moves what the child wrote; `discard` when no owner will ever read it. */
void stream_readable(struct guardian *g, int i, int discard) {
  if (capture_readable(g, i, discard)) return;
  struct stream *s = &g->s[i];
  unsigned char buf[OUTPUT_CHUNK];
  discard = discard || orphaned(g); /* nobody to frame it for: the rings keep the tail (orphan.c) */
  /* Splicing needs no queue room: it may run until the pipe is empty. */
  int spliced_only = s->spill_fd >= 0 && s->total >= g->o->head_bytes[i];
  for (int rounds = 0; (spliced_only || rounds < 16) && s->fd >= 0; rounds++) {
    if (!discard && bytes_len(&g->out) >= OUT_LIMIT) return;
    ssize_t r;
    int spilling = s->spill_fd >= 0 && !s->spill_failed;
    if (spilling && s->total >= g->o->head_bytes[i]) {
#ifdef __linux__
      r = splice(s->fd, NULL, s->spill_fd, NULL, 1 << 20, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (r < 0 && errno == EINVAL) spilling = 0; /* a file system without splice: copy instead */
      else {
        if (r < 0 && errno != EAGAIN && errno != EINTR) { stream_spill_fail(g, s, errno, NULL, 0); continue; }
        if (r > 0) { s->total += (uint64_t)r; s->spilled += (uint64_t)r; }
        if (r == 0) { stream_eof(g, i); return; }
        if (r < 0) return;
        continue;
      }
#endif
    }
    size_t want = sizeof buf;
    if (spilling && s->total < g->o->head_bytes[i] && g->o->head_bytes[i] - s->total < want) {
      want = (size_t)(g->o->head_bytes[i] - s->total);
    }
    /* Fill one frame from several reads (a PTY gives at most a few KiB a read): fewer, larger events. */
    size_t fill = 0;
    int ended = 0, drained = 0, read_err = 0;
    for (int eintr = 0; fill < want;) {
      r = read(s->fd, buf + fill, want - fill);
      if (r > 0) { fill += (size_t)r; continue; }
      if (r < 0 && errno == EINTR && ++eintr < 100) continue; /* retried, but not for ever */
      if (r < 0 && (errno == EAGAIN || errno == EINTR)) drained = 1;
      else {
        ended = 1; /* EOF, or EIO from a PTY master whose slave side is all closed */
        if (r < 0 && s->fd != g->c.master) read_err = errno; /* on a pipe, an error is not an EOF */
      }
      break;
    }
    if (fill > 0) {
      int in_head = s->total < g->o->head_bytes[i];
      s->total += fill;
      if (i == 1) job_spill_write(g, buf, fill); /* before any owner sees them (job-spill.c) */
      orphan_keep(g, i, buf, fill);
      if (s->spill_fd >= 0) {
        stream_spill_write(g, s, buf, fill);
        if (in_head && !discard) frame_put2(&g->out, EV_OUTPUT, (unsigned char)i, buf, fill);
      } else if (!discard) {
        frame_put2(&g->out, EV_OUTPUT, (unsigned char)i, buf, fill);
      }
    }
    if (ended) {
      /* The output cannot be complete: said, then the stream ends (the loop must not spin on it). */
      if (read_err) owner_fault(g, i == 1 ? "reading the child's stdout" : "reading the child's stderr", "read", read_err, i);
      stream_eof(g, i);
      return;
    }
    if (drained) return;
  }
}

/*
 * What the child wrote before a request arrived is framed before the
 * request's reply, so a reply is a barrier: a signal-0 request answered
 * means every byte written before it was sent has reached the owner. The
 * agent's `pty wait --ready` needs that: a program seen blocked on its
 * terminal has written all it will until it gets input, but a loaded machine
 * can leave those bytes in the PTY for longer than the agent waits between
 * two looks. The loop serves the owner before the streams in one round, so
 * without this the reply would overtake them. Bounded as the loop is: not
 * past the outbound limit, not while a tee waits for its reader.
 */
void streams_catch_up(struct guardian *g) {
  for (int i = 1; i < 3; i++) {
    if (g->s[i].fd >= 0 && capture_tee_waiting(g, i) < 0 && bytes_len(&g->out) < OUT_LIMIT) stream_readable(g, i, 0);
  }
}

/*
 * The owner's input credit (EV_INPUT_TAKEN): it keeps at most a window of
 * input in flight, so this guardian never stops reading its connection for
 * input's sake and a signal or terminate behind a large send still gets
 * through. Reported in slices, and whenever the queue runs empty.
 */
#define INPUT_REPORT_SLICE (16 * 1024)

static void input_taken(struct guardian *g, size_t n) {
  g->in_unreported += (uint32_t)n;
  if (g->in_unreported == 0) return;
  if (g->in_unreported < INPUT_REPORT_SLICE && bytes_len(&g->in) > 0) return;
  if (g->conn_fd >= 0 && g->authed) {
    unsigned char body[4] = {(unsigned char)(g->in_unreported >> 24), (unsigned char)(g->in_unreported >> 16),
                             (unsigned char)(g->in_unreported >> 8), (unsigned char)g->in_unreported};
    frame_put(&g->out, EV_INPUT_TAKEN, body, sizeof body);
  }
  g->in_unreported = 0;
}

/* Queued input that can never be delivered counts as taken: the owner's credit must not stall on it. */
static void input_dropped(struct guardian *g) {
  size_t n = bytes_len(&g->in);
  bytes_free(&g->in);
  input_taken(g, n);
}

static void stdin_closed_now(struct guardian *g) {
  if (g->c.in_fd >= 0 && g->c.in_fd != g->c.master) close(g->c.in_fd);
  if (g->c.in_fd != g->c.master) g->c.in_fd = -1;
  g->stdin_closed = 1;
  input_dropped(g);
  for (int k = 0; k < g->n_close_ids; k++) owner_reply(g, g->close_ids[k], NULL, NULL);
  g->n_close_ids = 0;
}

void stdin_writable(struct guardian *g) {
  while (bytes_len(&g->in) > 0 && g->c.in_fd >= 0) {
    ssize_t w = write(g->c.in_fd, g->in.data + g->in.start, bytes_len(&g->in));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w < 0) { /* EPIPE: the reader is gone; nothing queued can be delivered */
      if (g->c.in_fd == g->c.master) input_dropped(g);
      else stdin_closed_now(g);
      return;
    }
    bytes_consume(&g->in, (size_t)w);
    input_taken(g, (size_t)w);
  }
  if (bytes_len(&g->in) == 0 && g->n_close_ids > 0) stdin_closed_now(g);
}

void stdin_queue(struct guardian *g, const unsigned char *p, size_t n) {
  if (g->stdin_closed || g->c.in_fd < 0 || g->n_close_ids > 0) { input_taken(g, n); return; } /* nowhere to go: dropped */
  bytes_append(&g->in, p, n);
  stdin_writable(g);
}

void stdin_close(struct guardian *g, uint32_t id) {
  if (g->o->pty) {
    owner_reply(g, id, "not-a-pipe", "close-stdin needs --mode pipe; on a terminal send the EOF key (C-d)");
    return;
  }
  if (g->stdin_closed || g->c.in_fd < 0) {
    if (g->o->io[0] != IO_PIPE) owner_reply(g, id, "not-a-pipe", "close-stdin needs --stdin pipe");
    else owner_reply(g, id, NULL, NULL);
    return;
  }
  if (g->n_close_ids >= MAX_WAITERS) {
    owner_reply(g, id, "busy", "too many close-stdin requests pending");
    return;
  }
  g->close_ids[g->n_close_ids++] = id;
  stdin_writable(g);
}
