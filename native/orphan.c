/*
 * Outliving the owner (issue 11, DESIGN.md 4.9). A guardian started with
 * --adoptable (the agent's sessions and jobs) does not end its child when
 * its owner's connection is lost: it keeps reading the child's output so the
 * child never blocks, keeps the raw tail of each stream in a bounded ring
 * (--orphan-buffer bytes, default 1 MiB) with the stream position, counts
 * what fell out of the ring while nobody owned it, and waits for a new owner
 * (the same token) as long as the child lives, or --orphan-wait MS when set.
 * Once the child has exited, its exit facts wait --exit-wait MS (default
 * 10 minutes) for an owner; past either bound the tree is terminated and the
 * guardian exits, as a lingering guardian does.
 *
 * A new owner's welcome carries "adopt": per stream the position (bytes read
 * from the child), the bytes the ring holds (sent next as BACKLOG frames,
 * ending at that position), the bytes dropped while unowned, whether the
 * stream reached EOF; the terminal size and whether the child is stopped.
 * Then EOF frames for ended streams and EXITED when the child is gone, so
 * the new owner sees them as the first owner would have.
 *
 * The ring is filled from the first byte (not only once the owner is lost):
 * output that was framed for the old owner but never reached it is in the
 * ring too, so a job's spill can be completed byte-exact.
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

int orphaned(const struct guardian *g) { return g->o->adoptable && g->ever_owned && !g->authed; }

void orphan_keep(struct guardian *g, int i, const unsigned char *p, size_t n) {
  if (!g->o->adoptable || n == 0) return;
  struct tail_ring *r = &g->s[i].kept;
  size_t cap = g->o->orphan_buffer;
  if (orphaned(g)) g->s[i].unowned += n;
  if (cap == 0) return;
  if (r->buf == NULL) {
    r->buf = malloc(cap);
    if (r->buf == NULL) abort(); /* out of memory: nothing sensible is left to do */
  }
  if (n >= cap) {
    memcpy(r->buf, p + (n - cap), cap);
    r->pos = 0;
    r->len = cap;
    return;
  }
  size_t first = cap - r->pos < n ? cap - r->pos : n;
  memcpy(r->buf + r->pos, p, first);
  memcpy(r->buf, p + first, n - first);
  r->pos = (r->pos + n) % cap;
  r->len = r->len + n > cap ? cap : r->len + n;
}

/* The deadline that applies now: exit facts wait --exit-wait, a live child --orphan-wait (0: no bound). */
static void orphan_arm(struct guardian *g) {
  long long now = now_ms();
  if (g->reaped || g->spawn_failed) g->orphan_deadline = now + g->o->exit_wait_ms;
  else g->orphan_deadline = g->o->orphan_wait_ms > 0 ? now + g->o->orphan_wait_ms : 0;
}

int orphan_lost(struct guardian *g) {
  if (!g->o->adoptable || !g->started) return 0;
  /* What was queued for the old owner is in the rings (output) or in the state (exit, stop): rebuilt for the next. */
  bytes_free(&g->out);
  g->head_left = 0;
  for (int i = 1; i < 3; i++) g->s[i].unowned = 0;
  orphan_arm(g);
  return 1;
}

void orphan_child_exited(struct guardian *g) {
  if (orphaned(g)) orphan_arm(g);
}

void orphan_timer(struct guardian *g, long long now) {
  if (!orphaned(g) || g->orphan_deadline == 0 || now < g->orphan_deadline || g->term_active) return;
  g->orphan_deadline = 0;
  terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
}

size_t orphan_welcome(struct guardian *g, char *json, size_t cap) {
  size_t n = 0;
  n += (size_t)snprintf(json + n, cap - n, ",\"adopt\":{\"rows\":%d,\"cols\":%d,\"stopped\":%s,\"streams\":[", g->o->rows,
                        g->o->cols, g->stopped ? "true" : "false");
  int first = 1;
  for (int i = 1; i < 3 && n < cap; i++) {
    struct stream *s = &g->s[i];
    if (g->o->pty ? i != 1 : g->o->io[i] != IO_PIPE) continue;
    uint64_t dropped = s->unowned > s->kept.len ? s->unowned - s->kept.len : 0;
    n += (size_t)snprintf(json + n, cap - n, "%s{\"stream\":%d,\"position\":%llu,\"buffered\":%zu,\"dropped\":%llu,\"eof\":%s}",
                          first ? "" : ",", i, (unsigned long long)s->total, s->kept.len, (unsigned long long)dropped,
                          s->eof ? "true" : "false");
    first = 0;
  }
  if (n < cap) n += (size_t)snprintf(json + n, cap - n, "]}");
  return n < cap ? n : cap - 1;
}

void orphan_replay(struct guardian *g) {
  for (int i = 1; i < 3; i++) {
    struct tail_ring *r = &g->s[i].kept;
    size_t cap = g->o->orphan_buffer;
    size_t at = r->len < cap ? 0 : r->pos;
    for (size_t left = r->len; left > 0;) {
      size_t run = cap - at < left ? cap - at : left;
      if (run > OUTPUT_CHUNK) run = OUTPUT_CHUNK;
      frame_put2(&g->out, EV_BACKLOG, (unsigned char)i, r->buf + at, run);
      at = (at + run) % cap;
      left -= run;
    }
    g->s[i].unowned = 0;
    if (g->s[i].eof) {
      unsigned char b = (unsigned char)i;
      frame_put(&g->out, EV_EOF, &b, 1);
    }
  }
  g->orphan_deadline = 0;
  if (g->exited_sent) send_exited(g);
}

void orphan_free(struct guardian *g) {
  for (int i = 0; i < 3; i++) {
    free(g->s[i].kept.buf);
    g->s[i].kept.buf = NULL;
  }
}
