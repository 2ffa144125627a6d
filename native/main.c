/*
 * corral-guardian entry point: argv, the token from the environment, and the
 * process-wide setup (close-on-exec for inherited descriptors, signals).
 *
 * Usage:
 *   corral-guardian --probe
 *   corral-guardian (--socket PATH [--ready-fd N] | --owner-fd N | --owner-connect PATH) [--mode pipe|pty]
 *     [--stdin pipe|inherit|null] [--stdout pipe|inherit|null]
 *     [--stderr pipe|inherit|null|stdout] [--rows N] [--cols N] [--cwd DIR]
 *     [--linger MS] [--drain MS] [--grace MS] [--connect-timeout MS]
 *     [--max-payload BYTES] [--pgid new|inherit] [--file PATH]
 *     [--spill-stdout PATH] [--spill-stderr PATH] [--spill-direct] [--head-bytes N] [--tail-bytes N]
 *     [--stdout-head-bytes N] [--stdout-tail-bytes N] [--stderr-head-bytes N] [--stderr-tail-bytes N]
 *     [--head-lines N] [--tail-lines N] [--stdout-head-lines N] [--stdout-tail-lines N]
 *     [--stderr-head-lines N] [--stderr-tail-lines N]
 *     [--adoptable] [--orphan-wait MS] [--exit-wait MS] [--orphan-buffer BYTES] [--job-spill PATH]
 *     [--capture-stdout] [--capture-stderr] [--tee-stdout FD] [--tee-stderr FD]
 *     -- COMMAND [ARGS...]
 * --owner-fd N: the owner is already connected, over the socket pair it
 * passed as descriptor N (run and collect: saves a socket dir, a listen, a
 * connect and two round trips at every start); it needs no token, and the
 * child starts at once. Nothing can reconnect to such a guardian, so it
 * cannot be --adoptable.
 * --owner-connect PATH: the same, but the guardian connects to the Unix
 * socket PATH itself (Deno: Deno.Command cannot pass a descriptor past 2,
 * so the owner listens in a private 0700 directory and accepts this one
 * connection). No token: only the owner can reach that listener. A path
 * that cannot be connected to is status 1 before any child starts.
 * The owner's token comes in $CORRAL_GUARDIAN_TOKEN (the environment is
 * private to the user; argv is not) and is removed before the child starts:
 * the child's environment is the guardian's own, minus that one variable.
 *
 * Man pages: getopt is not used (long options only, POSIX has no
 * getopt_long); close_range(2), sigaction(2).
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
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "guardian.h"

static int usage(const char *why, const char *what) {
  fprintf(stderr, "corral-guardian: %s%s%s (see native/main.c for the usage)\n", why, what ? ": " : "", what ? what : "");
  return 2;
}

static int parse_long(const char *s, long min, long max, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max) return -1;
  *out = v;
  return 0;
}

static int parse_io(const char *s, int allow_merge, enum io_mode *out) {
  if (strcmp(s, "pipe") == 0) *out = IO_PIPE;
  else if (strcmp(s, "inherit") == 0) *out = IO_INHERIT;
  else if (strcmp(s, "null") == 0) *out = IO_NULL;
  else if (allow_merge && strcmp(s, "stdout") == 0) *out = IO_MERGE;
  else return -1;
  return 0;
}

/*
 * --head-bytes N and --tail-bytes N set a captured or spilled stream's kept
 * head and tail for both streams; --stdout-head-bytes, --stderr-tail-bytes
 * and the like for one (v6: each stream its own limits). --head-lines and
 * --tail-lines (and their --stdout-/--stderr- forms, v7) narrow a captured
 * stream's head to its first N lines and its tail to its last N (within the
 * byte limits: the smaller wins). -1: not such a flag.
 */
static int set_kept_limit(struct options *o, const char *a, uint64_t n) {
  int stream = 0;
  const char *rest = a + 2;
  if (strncmp(rest, "stdout-", 7) == 0) { stream = STREAM_STDOUT; rest += 7; }
  else if (strncmp(rest, "stderr-", 7) == 0) { stream = STREAM_STDERR; rest += 7; }
  uint64_t *limit = strcmp(rest, "head-bytes") == 0 ? o->head_bytes : strcmp(rest, "tail-bytes") == 0 ? o->tail_bytes : NULL;
  int64_t *lines = strcmp(rest, "head-lines") == 0 ? o->head_lines : strcmp(rest, "tail-lines") == 0 ? o->tail_lines : NULL;
  if (limit == NULL && lines == NULL) return -1;
  for (int i = STREAM_STDOUT; i <= STREAM_STDERR; i++) {
    if ((stream == STREAM_STDOUT && i != STREAM_STDOUT) || (stream == STREAM_STDERR && i != STREAM_STDERR)) continue;
    if (limit != NULL) limit[i] = n;
    else lines[i] = (int64_t)n;
  }
  return 0;
}

int options_parse(struct options *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->io[0] = o->io[1] = o->io[2] = IO_PIPE;
  o->rows = 24;
  o->cols = 80;
  o->ready_fd = -1;
  o->owner_fd = -1;
  o->owner_connect = NULL;
  o->direct_fd[0] = o->direct_fd[1] = o->direct_fd[2] = -1;
  o->tee_fd[0] = o->tee_fd[1] = o->tee_fd[2] = -1;
  o->linger_ms = 0;
  o->drain_ms = 500;
  o->grace_ms = 2000;
  o->connect_timeout_ms = 10000;
  o->kill_wait_ms = 2000;
  o->max_payload = 1024 * 1024;
  o->new_pgid = 1;
  o->head_bytes[STREAM_STDOUT] = o->head_bytes[STREAM_STDERR] = 64 * 1024;
  o->tail_bytes[STREAM_STDOUT] = o->tail_bytes[STREAM_STDERR] = 1024 * 1024;
  for (int k = 0; k < 3; k++) o->head_lines[k] = o->tail_lines[k] = -1;
  o->orphan_wait_ms = 0;
  o->exit_wait_ms = 600000;
  o->orphan_buffer = 1024 * 1024;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    long n = 0;
    if (strcmp(a, "--") == 0) { i++; break; }
    if (strcmp(a, "--probe") == 0) { o->probe = 1; continue; }
    if (strcmp(a, "--spill-direct") == 0) { o->spill_direct = 1; continue; }
    if (strcmp(a, "--adoptable") == 0) { o->adoptable = 1; continue; }
    if (strcmp(a, "--capture-stdout") == 0) { o->capture[STREAM_STDOUT] = 1; continue; }
    if (strcmp(a, "--capture-stderr") == 0) { o->capture[STREAM_STDERR] = 1; continue; }
    if (v == NULL) return usage("missing value after", a);
    i++;
    if (strcmp(a, "--socket") == 0) o->socket_path = v;
    else if (strcmp(a, "--owner-connect") == 0) o->owner_connect = v;
    else if (strcmp(a, "--cwd") == 0) o->cwd = v;
    else if (strcmp(a, "--file") == 0) o->file = v;
    else if (strcmp(a, "--mode") == 0) {
      if (strcmp(v, "pty") == 0) o->pty = 1;
      else if (strcmp(v, "pipe") == 0) o->pty = 0;
      else return usage("--mode must be pipe or pty, got", v);
    } else if (strcmp(a, "--stdin") == 0) {
      if (parse_io(v, 0, &o->io[0]) != 0) return usage("--stdin must be pipe, inherit or null, got", v);
    } else if (strcmp(a, "--stdout") == 0) {
      if (parse_io(v, 0, &o->io[1]) != 0) return usage("--stdout must be pipe, inherit or null, got", v);
    } else if (strcmp(a, "--stderr") == 0) {
      if (parse_io(v, 1, &o->io[2]) != 0) return usage("--stderr must be pipe, inherit, null or stdout, got", v);
    } else if (strcmp(a, "--pgid") == 0) {
      if (strcmp(v, "new") == 0) o->new_pgid = 1;
      else if (strcmp(v, "inherit") == 0) o->new_pgid = 0;
      else return usage("--pgid must be new or inherit, got", v);
    } else if (strcmp(a, "--job-spill") == 0) o->job_spill = v;
    else if (strcmp(a, "--spill-stdout") == 0) o->spill_path[STREAM_STDOUT] = v;
    else if (strcmp(a, "--spill-stderr") == 0) o->spill_path[STREAM_STDERR] = v;
    else if (strcmp(a, "--rows") == 0 || strcmp(a, "--cols") == 0) {
      if (parse_long(v, -1000000, 1000000, &n) != 0) return usage("not a number", v);
      n = n < 1 ? 1 : n > 1000 ? 1000 : n; /* clamped, as the screen is */
      if (a[2] == 'r') o->rows = (int)n; else o->cols = (int)n;
    } else {
      long min = 0, max = 86400000L;
      long *dst = NULL;
      if (strcmp(a, "--ready-fd") == 0 || strcmp(a, "--owner-fd") == 0) { max = 1 << 20; min = 3; }
      else if (strcmp(a, "--tee-stdout") == 0 || strcmp(a, "--tee-stderr") == 0) { max = 1 << 20; min = 1; }
      else if (strcmp(a, "--linger") == 0) dst = &o->linger_ms;
      else if (strcmp(a, "--drain") == 0) dst = &o->drain_ms;
      else if (strcmp(a, "--grace") == 0) dst = &o->grace_ms;
      else if (strcmp(a, "--connect-timeout") == 0) dst = &o->connect_timeout_ms;
      else if (strcmp(a, "--kill-wait") == 0) dst = &o->kill_wait_ms;
      else if (strcmp(a, "--orphan-wait") == 0) dst = &o->orphan_wait_ms;
      else if (strcmp(a, "--exit-wait") == 0) dst = &o->exit_wait_ms;
      else if (strcmp(a, "--orphan-buffer") == 0) { max = 1L << 30; }
      else if (strcmp(a, "--max-payload") == 0) { min = 64; max = 64L * 1024 * 1024; }
      else if (set_kept_limit(o, a, 0) == 0) { max = 1L << 30; }
      else return usage("unknown option", a);
      if (parse_long(v, min, max, &n) != 0) return usage("value out of range for", a);
      if (dst) *dst = n;
      else if (strcmp(a, "--ready-fd") == 0) o->ready_fd = (int)n;
      else if (strcmp(a, "--owner-fd") == 0) o->owner_fd = (int)n;
      else if (strcmp(a, "--tee-stdout") == 0) o->tee_fd[STREAM_STDOUT] = (int)n;
      else if (strcmp(a, "--tee-stderr") == 0) o->tee_fd[STREAM_STDERR] = (int)n;
      else if (strcmp(a, "--max-payload") == 0) o->max_payload = (size_t)n;
      else if (strcmp(a, "--orphan-buffer") == 0) o->orphan_buffer = (size_t)n;
      else (void)set_kept_limit(o, a, (uint64_t)n);
    }
  }
  if (o->probe) return 0;
  if (i >= argc) return usage("no command given after --", NULL);
  o->argv = argv + i;
  const char *owned = o->owner_fd >= 0 ? "--owner-fd" : o->owner_connect != NULL ? "--owner-connect" : NULL;
  if (o->owner_fd >= 0 && o->owner_connect != NULL) return usage("--owner-fd and --owner-connect do not go together", NULL);
  if (owned != NULL) {
    char why[96];
    if (o->socket_path != NULL || o->ready_fd >= 0) {
      snprintf(why, sizeof why, "%s goes without --socket and --ready-fd", owned);
      return usage(why, NULL);
    }
    if (o->adoptable) {
      snprintf(why, sizeof why, "--adoptable needs --socket (nothing can reconnect over %s)", owned);
      return usage(why, NULL);
    }
  } else if (o->socket_path == NULL) {
    return usage("--socket PATH (or --owner-fd N, or --owner-connect PATH) is required", NULL);
  }
  if (o->pty && (o->spill_path[1] || o->spill_path[2])) return usage("spill files need --mode pipe", NULL);
  if (o->spill_path[STREAM_STDERR] && o->io[2] != IO_PIPE) return usage("--spill-stderr needs --stderr pipe", NULL);
  if (o->spill_path[STREAM_STDOUT] && o->io[1] != IO_PIPE) return usage("--spill-stdout needs --stdout pipe", NULL);
  if (o->adoptable && (o->spill_path[1] || o->spill_path[2] || o->capture[1] || o->capture[2])) return usage("--adoptable cannot be combined with spill files or --capture-*", NULL);
  if (o->job_spill && !o->adoptable) return usage("--job-spill needs --adoptable", NULL);
  if (o->job_spill && !o->pty && o->io[1] != IO_PIPE) return usage("--job-spill needs --stdout pipe", NULL);
  if ((o->capture[1] && o->io[1] != IO_PIPE) || (o->capture[2] && o->io[2] != IO_PIPE) || (o->pty && (o->capture[1] || o->capture[2]))) {
    return usage("--capture-stdout/--capture-stderr need --mode pipe and that stream a pipe", NULL);
  }
  if ((o->tee_fd[1] >= 0 && !o->capture[1]) || (o->tee_fd[2] >= 0 && !o->capture[2])) {
    return usage("--tee-stdout/--tee-stderr need --capture-stdout/--capture-stderr", NULL);
  }
  if (o->spill_direct && (o->capture[1] || o->capture[2])) return usage("--capture-* and --spill-direct do not go together", NULL);
  for (int k = 1; k < 3; k++) {
    if ((o->head_lines[k] >= 0 || o->tail_lines[k] >= 0) && !o->capture[k]) return usage("--head-lines/--tail-lines go with --capture-* of the same stream", NULL);
  }
  if (o->spill_direct && !o->spill_path[1] && !o->spill_path[2]) return usage("--spill-direct needs --spill-stdout or --spill-stderr", NULL);
  const char *token = getenv("CORRAL_GUARDIAN_TOKEN");
  if (token == NULL && owned != NULL) return 0; /* the owner's own connection needs no token (owner.c) */
  if (token == NULL || strlen(token) < 16 || strlen(token) >= sizeof o->token) {
    return usage("$CORRAL_GUARDIAN_TOKEN must hold 16 to 255 characters", NULL);
  }
  strcpy(o->token, token);
  unsetenv("CORRAL_GUARDIAN_TOKEN");
  return 0;
}

/* Descriptors the owner let us inherit must not reach the child. */
static void cloexec_inherited(int keep) {
#if defined(__linux__) && defined(SYS_close_range)
  if (keep < 0 && syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) == 0) return;
#endif
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = 3; fd < max; fd++) {
    if (fd == keep) continue;
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

int main(int argc, char **argv) {
  struct options o;
  int rc = options_parse(&o, argc, argv);
  if (rc != 0) return rc;
  if (o.probe) return probe_run();
  cloexec_inherited(-1);
  return guardian_run(&o);
}
