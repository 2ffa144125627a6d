/*
 * The census: which processes belong to the supervised tree, found through
 * /proc (descendants of the guardian, which is their subreaper, plus the
 * child's process group and session), each pinned by a pidfd opened before
 * any signal and checked against its start time, so a reused pid is never
 * signalled.
 *
 * Man pages: proc(5) (/proc/PID/stat: state, ppid, pgrp, session,
 * starttime), pidfd_open(2), pidfd_send_signal(2), kill(2), poll(2).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "guardian.h"

#define CENSUS_MAX 4096

int proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, pid_t *sid, unsigned long long *start, char *state) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  /* The command name may hold spaces and parentheses: parse after the last ')'. */
  char *p = strrchr(buf, ')');
  if (p == NULL || p[1] == '\0') return -1;
  p += 2;
  char st = *p;
  long pp = 0, pg = 0, se = 0;
  if (sscanf(p + 1, " %ld %ld %ld", &pp, &pg, &se) != 3) return -1;
  /* starttime is field 22; we are at field 3 (state). */
  char *q = p;
  for (int field = 3; field < 22 && q; field++) {
    q = strchr(q, ' ');
    if (q) q++;
  }
  if (q == NULL) return -1;
  *ppid = (pid_t)pp;
  *pgrp = (pid_t)pg;
  *sid = (pid_t)se;
  *start = strtoull(q, NULL, 10);
  *state = st;
  return 0;
}

int pidfd_open_compat(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
  int fd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC); /* pidfds are close-on-exec already; be explicit */
  return fd;
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

int pidfd_signal_compat(int pidfd, int sig) {
#if defined(__linux__) && defined(SYS_pidfd_send_signal)
  return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
#else
  (void)pidfd;
  (void)sig;
  errno = ENOSYS;
  return -1;
#endif
}

struct entry {
  pid_t pid, ppid, pgrp, sid;
  unsigned long long start;
  char state;
  int in;
};

static int known(const struct census *cs, pid_t pid, unsigned long long start) {
  for (size_t i = 0; i < cs->n; i++) {
    if (cs->m[i].pid == pid && cs->m[i].start_time == start) return 1;
  }
  return 0;
}

static void add_member(struct census *cs, pid_t pid, unsigned long long start) {
  if (cs->n >= CENSUS_MAX) {
    cs->overflow = 1;
    return;
  }
  if (cs->n == cs->cap) {
    cs->cap = cs->cap ? cs->cap * 2 : 64;
    struct member *m = realloc(cs->m, cs->cap * sizeof *m);
    if (m == NULL) abort();
    cs->m = m;
  }
  struct member *m = &cs->m[cs->n];
  memset(m, 0, sizeof *m);
  m->pid = pid;
  m->start_time = start;
  m->pidfd = pidfd_open_compat(pid);
  /* The pidfd pins this process; if the start time moved, the pid was reused before we pinned it. */
  pid_t pp, pg, sid;
  unsigned long long st2;
  char state;
  if (proc_stat(pid, &pp, &pg, &sid, &st2, &state) != 0 || st2 != start) {
    if (m->pidfd >= 0) close(m->pidfd);
    return;
  }
  cs->n++;
}

/*
 * Without a listing of /proc (hidepid, a sandbox, an injected EACCES), the
 * tree can still be found by descent: every member is a descendant of ours
 * (we are its subreaper), and /proc/PID/task/PID/children names each
 * process's children. Returns 0 when that walk worked.
 */
static int scan_by_descent(struct census *cs) {
  pid_t queue[CENSUS_MAX];
  size_t head = 0, tail = 0;
  queue[tail++] = getpid();
  int ok = 1;
  while (head < tail) {
    pid_t p = queue[head++];
    char path[96];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)p, (int)p);
    FILE *f = fopen(path, "re");
    if (f == NULL) {
      if (p == getpid()) return -1; /* not even our own children: nothing to go by */
      continue;                     /* that process is gone */
    }
    long kid;
    while (fscanf(f, "%ld", &kid) == 1) {
      if (tail >= CENSUS_MAX) { cs->overflow = 1; ok = 0; break; }
      queue[tail++] = (pid_t)kid;
    }
    fclose(f);
  }
  for (size_t i = 1; i < tail; i++) {
    pid_t pp, pg, sid;
    unsigned long long start;
    char state;
    if (proc_stat(queue[i], &pp, &pg, &sid, &start, &state) != 0 || state == 'Z' || state == 'X') continue;
    int seen = 0;
    for (size_t k = 0; k < cs->n && !seen; k++) seen = cs->m[k].pid == queue[i] && cs->m[k].start_time == start;
    if (!seen) add_member(cs, queue[i], start);
  }
  return ok ? 0 : -1;
}

size_t census_scan(struct census *cs, pid_t pgid, pid_t sid) {
  pid_t pp0, pg0, sid0;
  unsigned long long st0;
  char state0;
  /* Our own stat must read: if it does not, no stat does, and an empty census would be a lie. */
  if (proc_stat(getpid(), &pp0, &pg0, &sid0, &st0, &state0) != 0) {
    cs->proc_listed = 0;
    cs->list_errno = errno ? errno : EIO;
    cs->proc_ok = 0;
    return 0;
  }
  DIR *d = opendir("/proc");
  if (d == NULL) {
    cs->proc_listed = 0;
    cs->list_errno = errno;
    size_t before = cs->n;
    cs->proc_ok = scan_by_descent(cs) == 0;
    return cs->n - before;
  }
  cs->proc_ok = 1;
  cs->proc_listed = 1;
  size_t cap = 1024, n = 0;
  struct entry *e = malloc(cap * sizeof *e);
  if (e == NULL) abort();
  struct dirent *de;
  pid_t self = getpid(), self_pgrp = getpgrp(), self_sid = getsid(0);
  while ((de = readdir(d)) != NULL) {
    char *end;
    long pid = strtol(de->d_name, &end, 10);
    if (*end != '\0' || pid <= 0 || pid == self) continue;
    if (n == cap) {
      cap *= 2;
      struct entry *g = realloc(e, cap * sizeof *e);
      if (g == NULL) abort();
      e = g;
    }
    struct entry *x = &e[n];
    if (proc_stat((pid_t)pid, &x->ppid, &x->pgrp, &x->sid, &x->start, &x->state) != 0) continue;
    x->pid = (pid_t)pid;
    x->in = (pgid > 0 && pgid != self_pgrp && x->pgrp == pgid) || (sid > 0 && sid != self_sid && x->sid == sid) ||
            x->ppid == self;
    n++;
  }
  closedir(d);
  /* Descendants: anything whose parent is in, until nothing changes. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < n; i++) {
      if (e[i].in) continue;
      for (size_t j = 0; j < n; j++) {
        if (e[j].in && e[j].pid == e[i].ppid) {
          e[i].in = 1;
          changed = 1;
          break;
        }
      }
    }
  }
  size_t added = 0;
  for (size_t i = 0; i < n; i++) {
    if (!e[i].in || e[i].state == 'Z' || e[i].state == 'X') continue;
    if (known(cs, e[i].pid, e[i].start)) continue;
    size_t before = cs->n;
    add_member(cs, e[i].pid, e[i].start);
    added += cs->n - before;
  }
  free(e);
  return added;
}

/* Gone: exited (zombie counts, DESIGN.md 4.2), or no longer the process we pinned. */
static int member_gone(struct member *m) {
  if (m->pidfd >= 0) {
    struct pollfd p = {m->pidfd, POLLIN, 0};
    if (poll(&p, 1, 0) > 0) return 1;
  }
  pid_t pp, pg, sid;
  unsigned long long st;
  char state;
  if (proc_stat(m->pid, &pp, &pg, &sid, &st, &state) != 0) return 1;
  return st != m->start_time || state == 'Z' || state == 'X';
}

void census_signal_one(struct census *cs, size_t i, int sig) {
  struct member *m = &cs->m[i];
  if (m->gone) return;
  if (sig == SIGKILL) m->killed = 1;
  int rc = 0;
  if (m->pidfd >= 0) {
    rc = pidfd_signal_compat(m->pidfd, sig);
    /* pidfd_send_signal refused (EPERM from a seccomp filter, ENOSYS): kill(2), the start time checked first. */
    if (rc != 0 && errno != ESRCH) {
      cs->signal_errno = errno;
      rc = member_gone(m) ? 0 : kill(m->pid, sig);
    }
  } else if (!member_gone(m)) {
    /* No pidfd here: the start time was just checked; the window is the best POSIX offers. */
    rc = kill(m->pid, sig);
  }
  if (rc != 0 && errno != ESRCH) m->sig_errno = errno;
}

void census_signal(struct census *cs, int sig) {
  for (size_t i = 0; i < cs->n; i++) census_signal_one(cs, i, sig);
}

int census_refresh(struct census *cs) {
  int live = 0;
  for (size_t i = 0; i < cs->n; i++) {
    struct member *m = &cs->m[i];
    if (!m->gone && member_gone(m)) m->gone = 1;
    if (!m->gone) live++;
  }
  return live;
}

void census_free(struct census *cs) {
  for (size_t i = 0; i < cs->n; i++) {
    if (cs->m[i].pidfd >= 0) close(cs->m[i].pidfd);
  }
  free(cs->m);
  memset(cs, 0, sizeof *cs);
}
