/*
 * The guardian's own socket path, watched (socket_watch, from the loop's
 * timers). Once the path is gone, or another file took it (the state dir
 * was removed, a logout cleared $XDG_RUNTIME_DIR), no new owner can ever
 * reach this guardian; while it has none, the tree is terminated after
 * SOCKET_GONE_MS rather than kept for an owner that cannot come. An owner
 * still connected keeps it: the owner decides (and its own loss later brings
 * the same end). Polled (a stat a second) rather than inotify: portable, and
 * a removed parent directory needs no special case.
 *
 * Man pages: stat(2).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>

#include "state.h"

#define SOCKET_CHECK_MS 1000
#define SOCKET_GONE_MS 5000

void socket_watch_start(struct guardian *g) {
  struct stat st;
  if (g->o->socket_path != NULL && stat(g->o->socket_path, &st) == 0) g->socket_ino = (unsigned long long)st.st_ino;
}

long long socket_watch_due(const struct guardian *g, long long now) {
  if (g->socket_ino == 0) return 0;
  return g->socket_check_at > now ? g->socket_check_at : now + SOCKET_CHECK_MS;
}

void socket_watch(struct guardian *g, long long now) {
  if (g->socket_ino == 0 || now < g->socket_check_at) return;
  g->socket_check_at = now + SOCKET_CHECK_MS;
  struct stat st;
  int there = stat(g->o->socket_path, &st) == 0 && (unsigned long long)st.st_ino == g->socket_ino;
  if (there) {
    g->socket_gone_since = 0;
    return;
  }
  if (g->socket_gone_since == 0) {
    g->socket_gone_since = now;
    fprintf(stderr, "corral-guardian: the socket %s is gone: no new owner can reach this guardian\n", g->o->socket_path);
  }
  if (!g->authed && g->started && !g->term_active && now - g->socket_gone_since >= SOCKET_GONE_MS) {
    fprintf(stderr, "corral-guardian: unowned and unreachable for %d ms: terminating the tree\n", SOCKET_GONE_MS);
    g->socket_ino = 0; /* once */
    terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
  }
}
