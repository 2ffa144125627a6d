/*
 * Lines of a captured stream (capture.c, streams.c): its line feeds counted
 * on the way, the head ended after its N-th line (--head-lines), and where
 * the last N lines of a kept tail begin (--tail-lines), so the guardian
 * sends only those. A line is its bytes up to and including its line feed;
 * an unterminated last line counts, as tail -n counts it (lib/output/
 * shown-output.ts startOfLastLines gives the same answer for the same
 * bytes). A kept tail lies in a ring or in the spill file: both are read
 * through one window here.
 *
 * Man pages: pread(2), memchr(3).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "state.h"

/* Line feeds in p[0..n): byte counters per lane, emptied before they can wrap (the compiler vectorises it). */
uint64_t count_line_feeds(const unsigned char *p, size_t n) {
  uint64_t total = 0;
  while (n > 0) {
    size_t k = n < 255 * 32 ? n : 255 * 32;
    unsigned char lanes[32] = {0};
    size_t i = 0;
    for (; i + 32 <= k; i += 32) {
      for (int j = 0; j < 32; j++) lanes[j] += p[i + j] == '\n';
    }
    for (int j = 0; j < 32; j++) total += lanes[j];
    for (; i < k; i++) total += p[i] == '\n';
    p += k;
    n -= k;
  }
  return total;
}

size_t head_lines_cut(const unsigned char *p, size_t n, int64_t lines, uint64_t *seen) {
  for (const unsigned char *at = p, *end = p + n; at < end;) {
    const unsigned char *lf = memchr(at, '\n', (size_t)(end - at));
    if (lf == NULL) break;
    if (++*seen == (uint64_t)lines) return (size_t)(lf + 1 - p);
    at = lf + 1;
  }
  return SIZE_MAX;
}

/* A kept tail: in a ring (ring != NULL), or in the spill file from file_at, read backwards a block at a time. */
struct tail_window {
  const unsigned char *ring;
  size_t cap, at;
  int fd;
  uint64_t file_at;
  unsigned char buf[65536];
  uint64_t buf_off;
  size_t buf_len;
};

/* Byte k of the window (0 <= k < len), or -1 when it cannot be read. */
static int window_byte(struct tail_window *w, uint64_t k) {
  if (w->ring != NULL) return w->ring[(w->at + k) % w->cap];
  if (k < w->buf_off || k >= w->buf_off + w->buf_len) {
    /* The block ending at k, so the next bytes asked for (going backwards) are in it. */
    uint64_t from = k + 1 >= sizeof w->buf ? k + 1 - sizeof w->buf : 0;
    size_t want = (size_t)(k + 1 - from);
    ssize_t r;
    do r = pread(w->fd, w->buf, want, (off_t)(w->file_at + from));
    while (r < 0 && errno == EINTR);
    if (r != (ssize_t)want) return -1;
    w->buf_off = from;
    w->buf_len = want;
  }
  return w->buf[k - w->buf_off];
}

static uint64_t lines_skip(struct tail_window *w, uint64_t len, int64_t lines) {
  if (lines < 0) return 0;
  if (lines == 0) return len;
  uint64_t end = len;
  if (end > 0 && window_byte(w, end - 1) == '\n') end--;
  int64_t found = 0;
  while (end > 0) {
    int b = window_byte(w, --end);
    if (b < 0) return 0; /* unreadable: the bytes limit stands */
    if (b == '\n' && ++found == lines) return end + 1;
  }
  return 0;
}

uint64_t ring_lines_skip(const unsigned char *ring, size_t cap, size_t at, uint64_t len, int64_t lines) {
  struct tail_window w = {.ring = ring, .cap = cap, .at = at, .fd = -1};
  return lines_skip(&w, len, lines);
}

/* Static: its 64 KiB block is no burden on the guardian's stack, and one stream ends at a time. */
static struct tail_window file_window;

uint64_t file_lines_skip(int fd, uint64_t file_at, uint64_t len, int64_t lines) {
  file_window.ring = NULL;
  file_window.fd = fd;
  file_window.file_at = file_at;
  file_window.buf_off = 0;
  file_window.buf_len = 0;
  return lines_skip(&file_window, len, lines);
}
