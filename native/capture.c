/*
 * Bounded capture (--capture-stdout / --capture-stderr): collect's plain
 * fast path. The guardian keeps the stream itself instead of framing every
 * byte to its owner: the first head bytes are framed live (as before), the
 * rest is read straight into a ring that keeps the last tail bytes, and the
 * line feeds of the whole stream are counted on the way (lines.c; with
 * --head-lines/--tail-lines the head ends at line N and only the tail's last
 * N lines go out). At EOF the ring's
 * last tail bytes go out as EV_TAIL frames, then one EV_SPILLED carrying the
 * total, the line feeds and the byte just before the tail (so the owner can
 * tell whether the tail starts a line), the same picture a spill file gives.
 * A stream that also has a spill file is read, counted and written into it
 * (the head framed on the way): 1 GiB in 0.54 s against 0.68 s spliced and
 * then counted through mmap, as before 2026-12-03 (collect-spill.bench.ts
 * has both floors). When the file fails (a full disk) the ring here keeps
 * the tail instead.
 *
 * With --tee-stdout/--tee-stderr FD (collect --live) every byte read is
 * also written to FD (corral's own stdout/stderr, passed down), unchanged
 * and in order, as tee(1) does: the stream then never goes through
 * JavaScript, and memory stays this file's buffers whatever the volume. The
 * bytes just read wait in the ring or the read buffer until FD took them;
 * meanwhile the child's pipe is not read (backpressure: the child waits on
 * a slow reader of corral's output, as with tee). A reader that went away
 * (EPIPE, any write error) stops the tee, not the capture.
 *
 * While output flows, an EV_PROGRESS at most every PROGRESS_MS (total, line
 * feeds, the ring's last bytes) lets the owner's heartbeat and status line
 * tell how far the stream got without seeing it.
 *
 * Man pages: read(2), write(2), fcntl(2) (F_SETPIPE_SZ), pipe(7).
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
#include <poll.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "state.h"

/* Bytes asked of one read(2): big reads, few system calls, few wake-ups of the writer. */
#define CAPTURE_READ (1024 * 1024)
/* A pipe this big lets the child write 1 MiB before it waits on us (the default is 64 KiB). */
#define CAPTURE_PIPE (1024 * 1024)
/* Progress for the owner's heartbeat: often enough for its 250 ms tick, rare enough to cost nothing. */
#define PROGRESS_MS 200
/* Last bytes a progress carries: what a heartbeat quotes its last line from. */
#define PROGRESS_LAST 4096

struct capture {
  unsigned char *ring; /* the stream's last bytes (no spill file, or since it failed); NULL before */
  size_t cap;          /* ring size: at least tail_bytes + 1, so the byte before the tail is kept */
  size_t pos;          /* where the next byte goes */
  uint64_t after_head; /* bytes put in the ring (no spill file: the bytes past the head) */
  uint64_t head_end, head_lf; /* where the framed head ends (head_bytes, or line head_lines'), line feeds in it */
  unsigned char *buf;  /* with a spill file: the read buffer */
  uint64_t line_feeds; /* of the whole stream */
  int pipe_sized;
  long long progress_at; /* when the last EV_PROGRESS went out */
  int progress_due;      /* bytes came since: one more goes out by progress_at + PROGRESS_MS */
  int drained;           /* the last capture_readable emptied the pipe (EAGAIN) */
  int tee_fd;                /* --tee-*: where every byte also goes, -1: none (or its reader went away) */
  const unsigned char *tee_p; /* bytes read but not yet taken by tee_fd (in ring or buf) */
  size_t tee_n;
};

void capture_open(struct guardian *g, int i) {
  if (!g->o->capture[i] || g->o->io[i] != IO_PIPE) return;
  struct capture *c = calloc(1, sizeof *c);
  if (c == NULL) abort(); /* out of memory before the child even started */
  uint64_t want = g->o->tail_bytes[i] + 1;
  if (want < CAPTURE_READ) want = CAPTURE_READ;
  c->cap = (size_t)want;
  c->head_end = g->o->head_lines[i] == 0 ? 0 : g->o->head_bytes[i];
  c->tee_fd = g->o->tee_fd[i];
  if (g->s[i].spill_fd >= 0) c->buf = malloc(CAPTURE_READ); /* the ring waits for a spill failure */
  else c->ring = malloc(c->cap);
  if (c->buf == NULL && c->ring == NULL) abort();
  g->s[i].capture = c;
}

/* Appends to the ring (keeping its last cap bytes): the slow way, after a spill failure only. */
static void ring_put(struct capture *c, const unsigned char *p, size_t n) {
  c->after_head += n;
  if (n >= c->cap) {
    p += n - c->cap;
    n = c->cap;
  }
  size_t first = c->cap - c->pos < n ? c->cap - c->pos : n;
  memcpy(c->ring + c->pos, p, first);
  memcpy(c->ring, p + first, n - first);
  c->pos = (c->pos + n) % c->cap;
}

/*
 * The spill file stopped taking bytes (a full disk): from here the ring keeps
 * the tail, seeded with what streams.c kept (the file's last bytes and the
 * rest of the failed write), so the byte before the tail can still be told.
 */
static void spill_failed_now(struct stream *s, struct capture *c, uint64_t tail_bytes) {
  c->ring = malloc(c->cap);
  if (c->ring == NULL) abort();
  if (s->ring == NULL || tail_bytes == 0) return;
  uint64_t at = s->ring_len < tail_bytes ? 0 : s->ring_pos;
  for (uint64_t left = s->ring_len; left > 0;) {
    size_t run = (size_t)(tail_bytes - at) < left ? (size_t)(tail_bytes - at) : (size_t)left;
    ring_put(c, s->ring + at, run);
    at = (at + run) % tail_bytes;
    left -= run;
  }
}

uint64_t capture_line_feeds(struct stream *s) {
  struct capture *c = s->capture;
  if (c == NULL) return 0;
  return c->line_feeds;
}

/*
 * Writes what the tee has pending; 1 when all of it went (or the tee is
 * gone: EPIPE or any other failure ends the tee, never the capture), 0 when
 * FD is full (non-blocking: its reader is slower than the child).
 */
static int tee_flush(struct capture *c) {
  while (c->tee_n > 0 && c->tee_fd >= 0) {
    ssize_t w = write(c->tee_fd, c->tee_p, c->tee_n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (w <= 0) {
      close(c->tee_fd);
      c->tee_fd = -1;
      break;
    }
    c->tee_p += w;
    c->tee_n -= (size_t)w;
  }
  c->tee_n = 0;
  return 1;
}

int capture_tee_waiting(const struct guardian *g, int i) {
  const struct capture *c = g->s[i].capture;
  return c != NULL && c->tee_n > 0 && c->tee_fd >= 0 ? c->tee_fd : -1;
}

void capture_tee_writable(struct guardian *g, int i) {
  if (g->s[i].capture != NULL) (void)tee_flush(g->s[i].capture);
}

/* The head part of a read: framed live, as an uncaptured stream's would be. */
static void frame_head(struct guardian *g, int i, const unsigned char *p, size_t n, int discard) {
  uint64_t total = g->s[i].total;
  uint64_t head_end = g->s[i].capture->head_end;
  if (total >= head_end || discard) return;
  uint64_t left = head_end - total;
  size_t k = left < n ? (size_t)left : n;
  for (size_t at = 0; at < k; at += OUTPUT_CHUNK) {
    frame_put2(&g->out, EV_OUTPUT, (unsigned char)i, p + at, k - at < OUTPUT_CHUNK ? k - at : OUTPUT_CHUNK);
  }
}

static void put_u64(unsigned char *p, uint64_t v) {
  for (int k = 7; k >= 0; k--, v >>= 8) p[k] = (unsigned char)(v & 0xff);
}

/* u8 stream, u64 total, u64 line feeds (big-endian), then the last bytes kept past the head. */
static void send_progress(struct guardian *g, int i) {
  struct capture *c = g->s[i].capture;
  (void)capture_line_feeds(&g->s[i]);
  unsigned char body[17 + PROGRESS_LAST];
  body[0] = (unsigned char)i;
  put_u64(body + 1, g->s[i].total);
  put_u64(body + 9, c->line_feeds);
  size_t n = 0;
  if (c->ring != NULL && g->s[i].total > c->head_end) {
    n = c->after_head < PROGRESS_LAST ? (size_t)c->after_head : PROGRESS_LAST;
    if (n > c->cap) n = c->cap;
    size_t at = (c->pos + c->cap - n) % c->cap;
    size_t first = c->cap - at < n ? c->cap - at : n;
    memcpy(body + 17, c->ring + at, first);
    memcpy(body + 17 + first, c->ring, n - first);
  }
  frame_put(&g->out, EV_PROGRESS, body, 17 + n);
}

int capture_readable(struct guardian *g, int i, int discard) {
  struct stream *s = &g->s[i];
  struct capture *c = s->capture;
  if (c == NULL) return 0;
#ifdef F_SETPIPE_SZ
  if (!c->pipe_sized) {
    c->pipe_sized = 1;
    (void)fcntl(s->fd, F_SETPIPE_SZ, CAPTURE_PIPE); /* a refusal (pipe-max-size) only costs speed */
  }
#endif
  c->drained = 0;
  if (!tee_flush(c)) return 1; /* the last bytes still wait for the tee: the pipe waits too */
  /* Bounded rounds, so one busy stream cannot starve the owner's socket or the other stream. */
  for (int rounds = 0; rounds < 64 && s->fd >= 0; rounds++) {
    if (!discard && s->total < c->head_end && bytes_len(&g->out) >= OUT_LIMIT) return 1;
    unsigned char *into;
    size_t want;
    if (s->spill_fd >= 0) {
      into = c->buf; /* through the buffer: head frames, and the spill file's copy (or the ring's) */
      want = CAPTURE_READ;
    } else if (s->total < c->head_end) {
      into = c->ring; /* the head, framed from here; the ring is still empty */
      want = c->cap;
      if (c->head_end - s->total < want) want = (size_t)(c->head_end - s->total);
    } else {
      into = c->ring + c->pos; /* straight into the ring, up to its end */
      want = c->cap - c->pos;
      if (want > CAPTURE_READ) want = CAPTURE_READ;
    }
    ssize_t r = read(s->fd, into, want);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && errno == EAGAIN) {
      c->drained = 1;
      break;
    }
    if (r <= 0) {
      if (r < 0) owner_fault(g, i == 1 ? "reading the child's stdout" : "reading the child's stderr", "read", errno, i);
      stream_eof(g, i);
      return 1;
    }
    size_t n = (size_t)r;
    c->line_feeds += count_line_feeds(into, n);
    if (g->o->head_lines[i] > 0 && s->total < c->head_end) { /* --head-lines N: the head may end at its N-th line */
      size_t cut = head_lines_cut(into, c->head_end - s->total < n ? (size_t)(c->head_end - s->total) : n, g->o->head_lines[i], &c->head_lf);
      if (cut != SIZE_MAX) c->head_end = s->total + cut;
    }
    if (s->spill_fd >= 0) {
      frame_head(g, i, into, n, discard);
      s->total += n;
      if (c->ring != NULL) {
        ring_put(c, into, n);
      } else {
        stream_spill_write(g, s, into, n);
        if (s->spill_failed) spill_failed_now(s, c, g->o->tail_bytes[i]);
      }
    } else if (s->total < c->head_end) {
      frame_head(g, i, into, n, discard);
      uint64_t k = c->head_end - s->total; /* k < n: the head ended at its N-th line, ring[k..n) starts the ring */
      s->total += n;
      if (k < n) { c->pos = n % c->cap; c->after_head = n - k; }
    } else {
      s->total += n;
      c->after_head += n;
      c->pos = (c->pos + n) % c->cap;
    }
    if (c->tee_fd >= 0) {
      c->tee_p = into; /* stays put until taken: no read happens before that */
      c->tee_n = n;
      if (!tee_flush(c)) break;
    }
  }
  c->progress_due = !discard;
  capture_timers(g, now_ms());
  return 1;
}

void capture_timers(struct guardian *g, long long now) {
  for (int i = 1; i < 3; i++) {
    struct capture *c = g->s[i].capture;
    if (c == NULL || !c->progress_due || g->s[i].fd < 0 || now - c->progress_at < PROGRESS_MS) continue;
    c->progress_at = now;
    c->progress_due = 0;
    send_progress(g, i);
  }
}

long long capture_due(const struct guardian *g) {
  long long due = 0;
  for (int i = 1; i < 3; i++) {
    const struct capture *c = g->s[i].capture;
    if (c == NULL || !c->progress_due || g->s[i].fd < 0) continue;
    if (due == 0 || c->progress_at + PROGRESS_MS < due) due = c->progress_at + PROGRESS_MS;
  }
  return due;
}

/*
 * Gives the kernel back the ring's whole pages in [ring + from, ring + to),
 * bytes already framed for the owner: while a tail of 64 MiB is framed the
 * queue grows by as much, and without this the guardian held both at once
 * (twice the kept bytes). Only whole pages of [from, to) go, and the page
 * holding `from` only when `framed_before` says its bytes before `from` are
 * framed already (the ring wraps: before the tail's first byte lie its
 * newest); none before the ring's first whole page (malloc's bookkeeping).
 */
static void ring_release(struct capture *c, size_t from, size_t to, int framed_before) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t base = ((uintptr_t)c->ring + page - 1) & ~(page - 1);
  uintptr_t lo = ((uintptr_t)(c->ring + from) + (framed_before ? 0 : page - 1)) & ~(page - 1);
  uintptr_t hi = ((uintptr_t)(c->ring + to)) & ~(page - 1);
  if (lo < base) lo = base;
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_DONTNEED); /* a refusal only costs memory */
}

int capture_finish(struct guardian *g, int i) {
  struct stream *s = &g->s[i];
  struct capture *c = s->capture;
  if (c == NULL) return 0;
  /* A working spill file is streams.c's to finish (the tail is read back from it); its count is settled first. */
  if (s->spill_fd >= 0 && c->ring == NULL) {
    (void)capture_line_feeds(s);
    return 0;
  }
  uint64_t tail = c->after_head < g->o->tail_bytes[i] ? c->after_head : g->o->tail_bytes[i];
  int before = -1;
  size_t at = (c->pos + c->cap - (size_t)tail) % c->cap;
  if (c->after_head > tail) {
    before = c->ring[(at + c->cap - 1) % c->cap];
  } else if (s->spill_fd >= 0 && s->total > tail) {
    /* After a spill failure with little since: the byte is among those the file holds. */
    unsigned char b;
    if (pread(s->spill_fd, &b, 1, (off_t)(s->total - tail - 1)) == 1) before = b;
  }
  if (g->o->tail_lines[i] >= 0) {
    /* --tail-lines: only the last N lines of it; the byte before them is then the tail's own. */
    uint64_t skip = ring_lines_skip(c->ring, c->cap, at, tail, g->o->tail_lines[i]);
    if (skip > 0) {
      before = c->ring[(at + skip - 1) % c->cap];
      at = (at + (size_t)skip) % c->cap;
      tail -= skip;
    }
  }
  frames_reserve(&g->out, tail);
  /* At EOF (the stream's fd closed) nothing reads the ring again: its framed pages go back as it is framed. */
  int release = s->fd < 0;
  int first = 1;
  for (uint64_t left = tail; left > 0;) {
    size_t run = c->cap - at < left ? c->cap - at : (size_t)left;
    if (run > OUTPUT_CHUNK) run = OUTPUT_CHUNK;
    frame_put2(&g->out, EV_TAIL, (unsigned char)i, c->ring + at, run);
    /* After the first run, the bytes before `at` in its page were framed by the run before (or are the ring's start). */
    if (release) ring_release(c, at, at + run, !first);
    first = 0;
    at = (at + run) % c->cap;
    left -= run;
  }
  /* A spill file that failed (or could not even be opened): the tail here is still the stream's. */
  char json[512], esc[256];
  json_escape(esc, sizeof esc, s->spill_failed ? strerror(s->spill_failed) : "");
  snprintf(json, sizeof json,
           "{\"stream\":%d,\"total\":%llu,\"error\":%s%s%s,\"errno\":%d,\"tailSent\":true,\"captured\":true,\"lineFeeds\":%llu,"
           "\"beforeTail\":%d}",
           i, (unsigned long long)s->total, s->spill_failed ? "\"" : "", s->spill_failed ? esc : "null", s->spill_failed ? "\"" : "",
           s->spill_failed, (unsigned long long)c->line_feeds, before);
  owner_json(g, EV_SPILLED, json);
  if (s->spill_fd >= 0) close(s->spill_fd);
  s->spill_fd = -1;
  free(s->ring);
  s->ring = NULL;
  return 1;
}

void capture_free(struct stream *s) {
  if (s->capture == NULL) return;
  free(s->capture->ring);
  free(s->capture->buf);
  free(s->capture);
  s->capture = NULL;
}

/*
 * A terminate is about to answer: the tree is gone, so every writer of the
 * pipes is too, and what they wrote is read now (to EOF, which sends the
 * tail), before the receipt and before an exit. A pipe someone outside the
 * tree still holds is not waited for; when the guardian is about to exit
 * its picture so far is sent anyway (a later EOF would send a newer one).
 */
void capture_settle(struct guardian *g) {
  for (int i = 1; i < 3; i++) {
    struct stream *s = &g->s[i];
    if (s->capture == NULL) continue;
    for (int k = 0; k < 16 && s->fd >= 0 && s->capture != NULL; k++) {
      int tee = capture_tee_waiting(g, i);
      if (tee >= 0) {
        struct pollfd p = {tee, POLLOUT, 0};
        (void)poll(&p, 1, 50); /* a stalled reader of corral's output delays the receipt a little, not for ever */
      }
      capture_readable(g, i, 0);
      if (s->capture != NULL && s->capture->drained) break;
    }
    if (s->fd >= 0 && s->capture != NULL && g->exit_after_term) capture_finish(g, i);
  }
}
