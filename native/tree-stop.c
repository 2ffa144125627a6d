/*
 * SIGSTOP and SIGCONT to the whole tree (signal_target, target "tree"), in
 * an order that leaves the tree stopped, or running, as a whole.
 *
 * "The tree is stopped" means: every member found is in the stopped state
 * (/proc/PID/stat 'T', or 't' under a tracer), members forked while the
 * stop went on included, and the direct child's stop has been reaped (so
 * STOPPED goes out before the reply). Signalling every member at once, in
 * /proc order, did not give that:
 *
 * - A parent in vfork(2) (dash and bash spawn commands with it) waits in
 *   the kernel until the child execs or exits, and acts on a SIGSTOP only
 *   then. Stop the vfork child before its exec and the parent never
 *   stops: the tree hangs half stopped and no STOPPED comes.
 * - A member forked after the census is not stopped at all.
 *
 * So a member is stopped only once its parent is stopped (or is not a
 * member: the guardian, for the child and for orphans), top-down, the tree
 * rescanned every round, until no member runs. A parent that takes too
 * long (STOP_WAIT_MS: D state) no longer holds its children back.
 *
 * SIGCONT goes bottom-up, deepest first. A parent that waits with
 * WUNTRACED (the job shim, job-shim.c; an interactive shell) would
 * otherwise run first and still see its child's stop, which a SIGCONT
 * erases from waitpid only once it reaches the child: the shim would take
 * it for a Ctrl-Z and stop itself again, and the tree's CONTINUED would be
 * lost.
 *
 * Man pages: proc(5) (state, ppid), vfork(2), waitpid(2), signal(7).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <signal.h>
#include <stdlib.h>

#include "state.h"

/* How long parents that do not stop may hold back their children's SIGSTOP. */
#define STOP_WAIT_MS 2000

struct seen {
  pid_t ppid;
  int live, stopped;
};

static void look(struct census *cs, struct seen *s) {
  for (size_t i = 0; i < cs->n; i++) {
    pid_t pg, sid;
    unsigned long long start;
    char state = '?';
    s[i].ppid = 0;
    s[i].live = !cs->m[i].gone && proc_stat(cs->m[i].pid, &s[i].ppid, &pg, &sid, &start, &state) == 0 &&
                start == cs->m[i].start_time && state != 'Z' && state != 'X';
    if (!s[i].live) cs->m[i].gone = 1;
    s[i].stopped = s[i].live && (state == 'T' || state == 't');
  }
}

/* Index of the live member with this pid, or -1. */
static long member_at(const struct census *cs, const struct seen *s, pid_t pid) {
  for (size_t i = 0; i < cs->n; i++) {
    if (s[i].live && cs->m[i].pid == pid) return (long)i;
  }
  return -1;
}

void tree_stop(struct guardian *g, struct census *cs) {
  long long until = now_ms() + STOP_WAIT_MS;
  struct seen *s = NULL;
  for (;;) {
    tree_scan(g, cs);
    if (!cs->proc_ok) {
      census_signal(cs, SIGSTOP); /* no states to go by: all at once, as before */
      break;
    }
    s = realloc(s, (cs->n ? cs->n : 1) * sizeof *s);
    if (s == NULL) abort();
    look(cs, s);
    int running = 0, late = now_ms() >= until;
    for (size_t i = 0; i < cs->n; i++) {
      if (!s[i].live || s[i].stopped) continue;
      running++;
      if (cs->m[i].stop_sent && !late) continue;
      long parent = member_at(cs, s, s[i].ppid);
      if (!late && parent >= 0 && !s[parent].stopped) continue; /* its parent first */
      census_signal_one(cs, i, SIGSTOP);
      cs->m[i].stop_sent = 1;
    }
    if (running == 0 || late) break;
    sleep_ms(1);
  }
  free(s);
}

void tree_continue(struct census *cs) {
  struct seen *s = calloc(cs->n ? cs->n : 1, sizeof *s);
  size_t *depth = calloc(cs->n ? cs->n : 1, sizeof *depth);
  if (s == NULL || depth == NULL) abort();
  look(cs, s);
  size_t deepest = 0;
  for (size_t i = 0; i < cs->n; i++) {
    /* Bounded: a pid reused into a loop of parents cannot keep it going. */
    long at = (long)i;
    while (depth[i] <= cs->n && (at = member_at(cs, s, s[at].ppid)) >= 0) depth[i]++;
    if (depth[i] > deepest) deepest = depth[i];
  }
  for (size_t d = deepest + 1; d-- > 0;) {
    for (size_t i = 0; i < cs->n; i++) {
      if (depth[i] == d) census_signal_one(cs, i, SIGCONT);
    }
  }
  free(depth);
  free(s);
}
