/*
 * terminate(grace) as a census (DESIGN.md 4.2): SIGTERM (or the first signal
 * the owner names: a SIGINT corral forwards must not be followed by SIGTERM,
 * or a child that handles SIGINT and exits 0 would be killed) and SIGCONT to
 * every member found, members found later get the same; after the grace, freeze
 * what is left with SIGSTOP and rescan until the set stops changing, then
 * SIGKILL, and confirm each exit through its pidfd. The receipt says
 * "confirmed" with the members, or "uncertain" with the pids it could not
 * confirm and why. Also: signals to the child, its foreground group, or
 * the whole tree.
 *
 * Man pages: kill(2), pidfd_send_signal(2), ioctl_tty(2) (TIOCGPGRP),
 * proc(5), poll(2).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state.h"

/*
 * The child's group and session count only while the child is unreaped: its
 * pid pins those ids. Once it is reaped the ids may be reused by strangers
 * (pid_max is often 32768), and on Linux every member is a descendant of
 * ours anyway (subreaper), so the census then goes by descent alone.
 */
static pid_t pinned(const struct guardian *g, pid_t id) {
#ifdef __linux__
  if (g->reaped) return 0;
#endif
  return id;
}

void tree_scan(struct guardian *g, struct census *cs) {
  census_scan(cs, pinned(g, g->c.pgid), pinned(g, g->c.sid));
}

static void scan(struct guardian *g, struct census *cs) { tree_scan(g, cs); }

static void signal_new(struct census *cs, size_t from, int sig) {
  struct census tail = *cs;
  tail.m = cs->m + from;
  tail.n = cs->n - from;
  census_signal(&tail, sig);
  if (tail.signal_errno) cs->signal_errno = tail.signal_errno;
}

static void scan_and_term(struct guardian *g) {
  size_t before = g->cs.n;
  scan(g, &g->cs);
  signal_new(&g->cs, before, g->term_signal);
  signal_new(&g->cs, before, SIGCONT);
}

static const char *reason_for(const struct member *m) {
  if (m->sig_errno == EPERM) return "not permitted to signal it (EPERM: another user's process?)";
  pid_t pp, pg, sid;
  unsigned long long st;
  char state = '?';
  if (proc_stat(m->pid, &pp, &pg, &sid, &st, &state) == 0 && state == 'D') return "uninterruptible sleep (D state)";
  return "still present after SIGKILL";
}

static void finish(struct guardian *g) {
  struct census *cs = &g->cs;
  if (g->reaped) spill_direct_summary(g, 0); /* what a grandchild wrote before it died */
  capture_settle(g);
  int live = census_refresh(cs);
  int confirmed = live == 0 && cs->proc_ok && !cs->overflow;
  struct bytes j = {0};
  char item[256];
  /* the id differs per waiter: build everything after it once */
  struct bytes rest = {0};
  for (size_t i = 0, k = 0; i < cs->n; i++) {
    snprintf(item, sizeof item, "%s{\"pid\":%d,\"startTime\":%llu,\"killed\":%s}", k++ ? "," : "", (int)cs->m[i].pid,
             cs->m[i].start_time, cs->m[i].killed ? "true" : "false");
    bytes_append(&rest, item, strlen(item));
  }
  bytes_append(&rest, "],\"uncertain\":[", 15);
  int k = 0;
  if (!cs->proc_listed) owner_fault(g, "reading /proc for the census", "openat/read", cs->list_errno, 0);
  if (cs->signal_errno) owner_fault(g, "signalling the tree through pidfds (kill(2) was used instead)", "pidfd_send_signal", cs->signal_errno, 0);
  if (!cs->proc_ok) {
    /* Named by the child's pid (a real pid: what the tree is known by), not null. */
    snprintf(item, sizeof item, "{\"pid\":%d,\"reason\":\"/proc unreadable: descendants outside the process group cannot be found\"}",
             (int)g->c.pid);
    bytes_append(&rest, item, strlen(item));
    k++;
  }
  if (cs->overflow) {
    snprintf(item, sizeof item, "%s{\"pid\":null,\"reason\":\"too many members or the tree kept changing\"}", k++ ? "," : "");
    bytes_append(&rest, item, strlen(item));
  }
  for (size_t i = 0; i < cs->n; i++) {
    if (cs->m[i].gone) continue;
    snprintf(item, sizeof item, "%s{\"pid\":%d,\"reason\":\"%s\"}", k++ ? "," : "", (int)cs->m[i].pid, reason_for(&cs->m[i]));
    bytes_append(&rest, item, strlen(item));
  }
  bytes_append(&rest, "]}", 2);
  for (int w = 0; w < g->n_term_ids; w++) {
    char head[128];
    snprintf(head, sizeof head, "{\"id\":%u,\"status\":\"%s\",\"forced\":%s,\"members\":[", g->term_ids[w],
             confirmed ? "confirmed" : "uncertain", g->term_forced ? "true" : "false");
    bytes_free(&j);
    bytes_append(&j, head, strlen(head));
    bytes_append(&j, rest.data + rest.start, bytes_len(&rest));
    frame_put(&g->out, EV_RECEIPT, j.data + j.start, bytes_len(&j));
  }
  bytes_free(&j);
  bytes_free(&rest);
  int blind = !cs->proc_ok;
  census_free(cs);
  g->n_term_ids = 0;
  g->term_active = 0;
  g->suppress_stops = 0;
  if (!g->exit_after_term) return;
  /*
   * Ownerless, the census uncertain (/proc unreadable) and children still
   * here (orphans the subreaper adopted, which only /proc could name): going
   * now would hand them to init, where nobody can tell them from strangers.
   * Staying keeps them our children, so an owner still alive finds them by
   * their parent (corral's loss path: lib/supervise/guardian/orphaned-tree.ts)
   * and ends them; each is reaped here, and the guardian leaves once none is
   * left, or after HOLD_MS. The same with an owner when the census was blind
   * to /proc: the owner can read it (lib/supervise/guardian/census-unseen.ts).
   */
  if (!confirmed && (g->conn_fd < 0 || blind) && has_children(g)) {
    g->hold_deadline = now_ms() + HOLD_MS;
    return;
  }
  g->quit = 1;
}

/*
 * The tree is already gone, provably, without a census: the child is reaped
 * and we have no child at all. Every member descends from us (we are the
 * subreaper, so an orphan comes back to us, not to init), and a descendant
 * keeps a chain of parents up to one of our children (a zombie counts: it
 * holds its place until we reap it). waitid with WNOWAIT looks without
 * reaping. This is the end of almost every `run`: it skips two walks of /proc
 * and the 10 ms between them (issue 9, start-up).
 */
int has_children(const struct guardian *g) {
  (void)g;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  return !(waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) != 0 && errno == ECHILD);
}

static int tree_provably_empty(const struct guardian *g) {
#ifdef __linux__
  if (!g->reaped || !g->subreaper) return 0;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  return waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) != 0 && errno == ECHILD;
#else
  (void)g;
  return 0;
#endif
}

void terminate_start(struct guardian *g, long grace_ms, int has_id, uint32_t id, int exit_after, int first_signal) {
  if (has_id) {
    if (g->n_term_ids >= MAX_WAITERS) {
      owner_reply(g, id, "busy", "too many terminate requests pending");
      return;
    }
    g->term_ids[g->n_term_ids++] = id;
  }
  if (exit_after) g->exit_after_term = 1;
  long long deadline = now_ms() + grace_ms;
  if (g->term_active) {
    if (deadline < g->term_deadline) g->term_deadline = deadline; /* the shorter grace wins */
    return;
  }
  g->term_active = 1;
  g->term_forced = 0;
  g->term_signal = first_signal;
  g->term_deadline = deadline;
  memset(&g->cs, 0, sizeof g->cs);
  if (tree_provably_empty(g)) {
    /* An empty census that is complete: nothing to list, nothing left to signal. */
    g->cs.proc_ok = 1;
    g->cs.proc_listed = 1;
    finish(g);
    return;
  }
  scan_and_term(g);
  if (!g->cs.proc_ok && pinned(g, g->c.pgid) > 0 && g->c.pgid != getpgrp()) {
    kill(-g->c.pgid, first_signal);
    kill(-g->c.pgid, SIGCONT);
  }
}

/* The last phase runs to the end in one go: everything left is frozen, then killed. */
static void kill_phase(struct guardian *g) {
  struct census *cs = &g->cs;
  g->suppress_stops = 1;
  census_signal(cs, SIGSTOP);
  for (int round = 0;; round++) {
    size_t before = cs->n;
    scan(g, cs);
    if (cs->n == before) break;
    signal_new(cs, before, SIGSTOP);
    if (round >= 32) { cs->overflow = 1; break; }
  }
  if (census_refresh(cs) > 0) g->term_forced = 1;
  census_signal(cs, SIGKILL);
  if (!cs->proc_ok && pinned(g, g->c.pgid) > 0 && g->c.pgid != getpgrp()) kill(-g->c.pgid, SIGKILL);
  long long until = now_ms() + g->o->kill_wait_ms;
  while (census_refresh(cs) > 0 && now_ms() < until) {
    reap(g);
    sleep_ms(5);
  }
  reap(g);
  finish(g);
}

void terminate_step(struct guardian *g) {
  if (!g->term_active) return;
  reap(g);
  long long now = now_ms();
  /* A busy child wakes the loop often; the census (a walk of /proc) runs at most every 10 ms. */
  if (now - g->last_scan < 10 && now < g->term_deadline) return;
  g->last_scan = now;
  scan_and_term(g);
  if (census_refresh(&g->cs) == 0 && g->cs.proc_ok) {
    finish(g);
    return;
  }
  if (now_ms() >= g->term_deadline) kill_phase(g);
}

void signal_target(struct guardian *g, uint32_t id, int target, int signo) {
  if (signo < 0 || signo > 64) { owner_reply(g, id, "bad-signal", "signal numbers run from 0 to 64"); return; }
  if (!g->started || g->spawn_failed) { owner_reply(g, id, "no-child", "no child has been started"); return; }
  int rc = 0;
  if (target == SIGNAL_TARGET_CHILD) {
    if (g->reaped) { owner_reply(g, id, "exited", "the child has exited"); return; }
    rc = kill(g->c.pid, signo); /* not yet reaped: the pid cannot have been reused */
  } else if (target == SIGNAL_TARGET_FOREGROUND) {
    pid_t pg = g->c.pgid;
    if (g->c.master >= 0) {
      pid_t fg = 0;
      if (ioctl(g->c.master, TIOCGPGRP, &fg) == 0 && fg > 0) pg = fg;
    }
    if (g->c.master < 0 && g->reaped) { owner_reply(g, id, "exited", "the child has exited; its group id may be reused"); return; }
    if (pg <= 0 || pg == getpgrp()) { owner_reply(g, id, "no-group", "the child has no process group of its own"); return; }
    rc = kill(-pg, signo);
  } else if (target == SIGNAL_TARGET_TREE) {
    struct census cs;
    memset(&cs, 0, sizeof cs);
    /* SIGSTOP top-down until every member is stopped, SIGCONT bottom-up (tree-stop.c). */
    if (signo == SIGSTOP) tree_stop(g, &cs);
    else if (signo == SIGCONT) {
      scan(g, &cs);
      tree_continue(&cs);
    } else {
      scan(g, &cs);
      census_signal(&cs, signo);
    }
    census_free(&cs);
    /* The child's stop or continue is an event before the reply, and before the owner's next
       frame: a SIGCONT read in the same batch must not hide the stop (waitpid keeps only the last). */
    reap(g);
  } else {
    owner_reply(g, id, "bad-target", "signal target must be 0 (child), 1 (foreground group) or 2 (tree)");
    return;
  }
  if (rc != 0) owner_reply(g, id, "signal-failed", strerror(errno));
  else owner_reply(g, id, NULL, NULL);
}
