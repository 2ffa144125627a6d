/*
 * A job's spill file, written by the guardian itself (--job-spill PATH,
 * protocol v5). A job asked to keep everything must keep everything
 * whoever dies: the agent that owns the guardian can be SIGKILLed,
 * restarted or upgraded in the middle of a burst, and the bytes the child
 * writes meanwhile would otherwise live only in the bounded orphan ring
 * (orphan.c). So every byte read from stream 1 (the merged pipe, or the
 * PTY master) is appended here before it is framed for any owner: the file
 * always holds at least what any owner has seen, in order, with no hole.
 *
 * The owner created the file (a bad path is its usage error); it is opened
 * here without truncation, appending, and never through a symlink. When it
 * stops taking bytes (a full disk, EIO) nothing more is written (a later
 * success would leave bytes at the wrong offsets): the file holds exactly
 * the first job_spilled bytes, the owner is told by a fault, and a new owner
 * by its welcome ("jobSpill": spilled, errno).
 *
 * Man pages: open(2) (O_APPEND, O_NOFOLLOW), write(2).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "state.h"

static void job_spill_failed(struct guardian *g, int err) {
  g->job_spill_errno = err;
  if (g->job_spill_fd >= 0) close(g->job_spill_fd);
  g->job_spill_fd = -1;
  owner_fault(g, "the job's spill file stopped taking bytes", "write", err, 0);
}

void job_spill_open(struct guardian *g) {
  g->job_spill_fd = -1;
  if (g->o->job_spill == NULL) return;
  g->job_spill_fd = open(g->o->job_spill, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (g->job_spill_fd < 0) {
    g->job_spill_errno = errno;
    owner_fault(g, "the job's spill file could not be opened", "open", errno, 0);
  }
}

void job_spill_write(struct guardian *g, const unsigned char *p, size_t n) {
  if (g->job_spill_fd < 0) return;
  while (n > 0) {
    ssize_t w = write(g->job_spill_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      job_spill_failed(g, w < 0 ? errno : ENOSPC);
      return;
    }
    g->job_spilled += (uint64_t)w;
    p += w;
    n -= (size_t)w;
  }
}

size_t job_spill_welcome(const struct guardian *g, char *json, size_t cap) {
  if (g->o->job_spill == NULL || cap == 0) return 0;
  int n = snprintf(json, cap, ",\"jobSpill\":{\"spilled\":%llu,\"errno\":%d}", (unsigned long long)g->job_spilled,
                   g->job_spill_errno);
  if (n < 0) return 0;
  return (size_t)n < cap ? (size_t)n : cap - 1;
}

void job_spill_close(struct guardian *g) {
  if (g->job_spill_fd >= 0) close(g->job_spill_fd);
  g->job_spill_fd = -1;
}
