/*
 * --tail-lines for a captured stream (capture.c, streams.c): where the last
 * N lines of a kept tail begin, so the guardian sends only those. A line is
 * its bytes up to and including its line feed; an unterminated last line
 * counts, as tail -n counts it (lib/output/shown-output.ts startOfLastLines
 * gives the same answer for the same bytes). The tail lies in a ring or in
 * the spill file: both are read through one window here.
 *
 * Man pages: pread(2).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "state.h"

/* Byte k of the window (0 <= k < len), or -1 when it cannot be read. */
static int window_byte(struct tail_window *w, uint64_t k) {
  if (w->ring != NULL) return w->ring[(w->at + k) % w->cap];
  if (k < w->buf_off || k >= w->buf_off + w->buf_len) {
    /* Read backwards: the block ending at k, so the next bytes asked for are in it. */
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

uint64_t tail_lines_skip(struct tail_window *w, uint64_t len, int64_t lines) {
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
