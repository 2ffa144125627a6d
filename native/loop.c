/*
 * The guardian's event loop: the owner's socket (created here, 0600), the
 * child's start, SIGCHLD through a self-pipe, waitpid with WUNTRACED and
 * WCONTINUED for exact stop/continue/exit events, the PTY drain after the
 * child exits, the lifeline, and the timers, all on one poll(2).
 *
 * Man pages: poll(2), waitpid(2), prctl(2) (PR_SET_CHILD_SUBREAPER),
 * unix(7), bind(2), listen(2), sigaction(2), signal-safety(7).
 */
#ifdef __linux__
#define _GNU_SOURCE
#include <sys/prctl.h>
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state.h"

static int sig_write_fd = -1;
/* Set by the handler as well as written to the self-pipe: a pipe that cannot be read loses no SIGTERM. */
static volatile sig_atomic_t term_flag = 0;

static void on_signal(int sig) {
  int saved = errno;
  if (sig == SIGTERM) term_flag = 1;
  unsigned char b = (unsigned char)sig;
  ssize_t w = write(sig_write_fd, &b, 1);
  (void)w;
  errno = saved;
}

static int setup_signals(struct guardian *g) {
  if (pipe(g->sig_pipe) != 0) return -1;
  for (int i = 0; i < 2; i++) {
    fcntl(g->sig_pipe[i], F_SETFD, FD_CLOEXEC);
    fcntl(g->sig_pipe[i], F_SETFL, O_NONBLOCK);
  }
  sig_write_fd = g->sig_pipe[1];
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART; /* no SA_NOCLDSTOP: stops and continues are events */
  sigaction(SIGCHLD, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sa.sa_handler = SIG_IGN;
  /* Terminal signals are the owner's business: the guardian outlives them to clean up. */
  int ignored[] = {SIGPIPE, SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU};
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) sigaction(ignored[i], &sa, NULL);
  return 0;
}

static int setup_socket(struct guardian *g) {
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(g->o->socket_path) >= sizeof addr.sun_path) {
    fprintf(stderr, "corral-guardian: socket path is longer than %zu bytes: %s\n", sizeof addr.sun_path - 1, g->o->socket_path);
    return -1;
  }
  strcpy(addr.sun_path, g->o->socket_path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  fcntl(fd, F_SETFL, O_NONBLOCK);
  mode_t old = umask(0177);
  int rc = bind(fd, (struct sockaddr *)&addr, sizeof addr);
  umask(old);
  if (rc != 0 || chmod(g->o->socket_path, 0600) != 0 || listen(fd, 8) != 0) {
    fprintf(stderr, "corral-guardian: cannot listen on %s: %s\n", g->o->socket_path, strerror(errno));
    close(fd);
    return -1;
  }
  g->listen_fd = fd;
  socket_watch_start(g);
  return 0;
}

void send_exited(struct guardian *g) {
  char json[128];
  int st = g->status;
  if (st == -1) {
    snprintf(json, sizeof json, "{\"code\":null,\"signal\":null,\"core\":false}"); /* wait_failed: the status is lost */
  } else if (WIFSIGNALED(st)) {
    snprintf(json, sizeof json, "{\"code\":null,\"signal\":%d,\"core\":%s}", WTERMSIG(st),
#ifdef WCOREDUMP
             WCOREDUMP(st) ? "true" : "false"
#else
             "false"
#endif
    );
  } else {
    snprintf(json, sizeof json, "{\"code\":%d,\"signal\":null,\"core\":false}", WEXITSTATUS(st));
  }
  owner_json(g, EV_EXITED, json);
  g->exited_sent = 1;
}

void child_start(struct guardian *g) {
  streams_open_spills(g);
  job_spill_open(g);
  if (child_spawn(g->o, &g->c) != 0) {
    g->c.exec_errno = errno;
    g->c.pid = 0;
  }
  if (g->c.exec_errno != 0) {
    char json[512], esc[256];
    json_escape(esc, sizeof esc, strerror(g->c.exec_errno));
    snprintf(json, sizeof json, "{\"errno\":%d,\"message\":\"%s\"}", g->c.exec_errno, esc);
    owner_json(g, EV_SPAWN_FAILED, json);
    g->spawn_failed = 1;
    if (g->c.pid > 0) waitpid(g->c.pid, NULL, 0); /* it exits 127 at once */
    for (int i = 0; i < 3; i++) {
      if (g->c.out_fd[i] >= 0) close(g->c.out_fd[i]);
    }
    if (g->c.in_fd >= 0 && g->c.in_fd != g->c.master) close(g->c.in_fd);
    g->c.in_fd = g->c.master = -1;
    for (int i = 1; i < 3; i++) {
      if (g->s[i].spill_fd >= 0) close(g->s[i].spill_fd);
      g->s[i].spill_fd = -1;
    }
    return;
  }
  g->started = 1;
  for (int i = 1; i < 3; i++) g->s[i].fd = g->c.out_fd[i];
  char json[256];
  snprintf(json, sizeof json, "{\"pid\":%d,\"pgid\":%d,\"sid\":%d,\"startTime\":%llu}", (int)g->c.pid, (int)g->c.pgid,
           (int)g->c.sid, g->c.start_time);
  owner_json(g, EV_STARTED, json);
}

/*
 * waitpid keeps failing while the child is unreaped (it never should): once
 * /proc shows the child a zombie, or gone, it has exited, with a status that
 * cannot be had. EXITED then carries no code and no signal, and the fault
 * says why, rather than the owner waiting for ever.
 */
static void wait_failed(struct guardian *g, int err) {
  owner_fault(g, "waiting for the child's exit status", "wait4", err, 0);
  if (g->wait_errno == 0) g->wait_failing_since = now_ms();
  g->wait_errno = err;
  pid_t pp, pg, sid;
  unsigned long long st;
  char state = '?';
  int gone = proc_stat(g->c.pid, &pp, &pg, &sid, &st, &state) != 0 || st != g->c.start_time || state == 'Z' || state == 'X';
  /* EINTR is worth retrying for a while; the child's end is decided after a second of failures. */
  if (!gone || now_ms() - g->wait_failing_since < 1000) return;
  g->reaped = 1;
  g->status = -1;
  for (int i = 1; i < 3; i++) {
    if (g->s[i].fd >= 0 && !g->o->pty) stream_readable(g, i, 0);
  }
  spill_direct_summary(g, 1);
  if (!g->o->pty || g->s[1].fd < 0) send_exited(g);
  else g->drain_deadline = now_ms() + g->o->drain_ms;
}

void reap(struct guardian *g) {
  for (;;) {
    int st = 0;
    pid_t pid = waitpid(-1, &st, WNOHANG | WUNTRACED | WCONTINUED);
    if (pid < 0 && g->started && !g->spawn_failed && !g->reaped && g->c.pid > 0) {
      wait_failed(g, errno); /* ECHILD too: the child is ours until it is reaped */
      return;
    }
    if (pid <= 0) return;
    if (pid != g->c.pid || g->reaped) continue; /* an orphan we adopted as subreaper */
    if (WIFSTOPPED(st)) {
      g->stopped = 1;
      if (!g->suppress_stops) {
        char json[64];
        snprintf(json, sizeof json, "{\"signal\":%d}", WSTOPSIG(st));
        owner_json(g, EV_STOPPED, json);
      }
    } else if (WIFCONTINUED(st)) {
      g->stopped = 0;
      if (!g->suppress_stops) owner_json(g, EV_CONTINUED, "{}");
    } else {
      g->reaped = 1;
      g->status = st;
      g->stopped = 0;
      orphan_child_exited(g);
      if (g->o->pty && g->s[1].fd >= 0) {
        g->drain_deadline = now_ms() + g->o->drain_ms; /* EXITED follows the drain */
      } else {
        /* Pipes: what the child wrote before exiting goes out before EXITED. */
        for (int i = 1; i < 3; i++) {
          if (g->s[i].fd >= 0) stream_readable(g, i, 0);
        }
        spill_direct_summary(g, 1);
        send_exited(g);
      }
    }
  }
}

static void drain_signals(struct guardian *g) {
  unsigned char buf[64];
  ssize_t n;
  int eintr = 0;
  for (;;) {
    n = read(g->sig_pipe[0], buf, sizeof buf);
    if (n > 0) continue;
    if (n < 0 && errno == EINTR && ++eintr < 100) continue;
    if (n < 0 && errno != EAGAIN) {
      /* Unreadable: stop polling it (it would stay readable: a spin) and look at the flags on a timer. */
      owner_fault(g, "reading the guardian's signal pipe (signals are now checked every 20 ms)", "read", errno, 0);
      g->sig_pipe_broken = 1;
    }
    break;
  }
  if (term_flag) {
    term_flag = 0;
    terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
  }
  reap(g);
}

static long long earliest(long long a, long long b) { return a == 0 ? b : b == 0 ? a : a < b ? a : b; }

static void timers(struct guardian *g, long long now) {
  if (g->conn_fd >= 0 && g->conn_deadline && now >= g->conn_deadline && (!g->authed || g->closing)) {
    owner_lost(g);
  }
  if (!g->ever_owned && now >= g->connect_deadline) g->quit = 1;
  if (g->linger_deadline && now >= g->linger_deadline && !g->authed) {
    g->linger_deadline = 0;
    terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
  }
  if (g->reaped && !g->exited_sent && g->drain_deadline) {
    /* The drain ends when the master goes quiet, not because the owner reads slowly: while the
       queue to the owner is full the master is not read (OUT_LIMIT), and its bytes still come first. */
    if (g->conn_fd >= 0 && bytes_len(&g->out) >= OUT_LIMIT) g->drain_deadline = now + g->o->drain_ms;
    else if (now >= g->drain_deadline) send_exited(g);
  }
  if (g->hold_deadline && (now >= g->hold_deadline || !has_children(g))) g->quit = 1;
  orphan_timer(g, now);
  capture_timers(g, now);
  socket_watch(g, now);
}

static void serve(struct guardian *g) {
  struct pollfd p[8];
  while (!g->quit) {
    int n = 0, i_listen = -1, i_conn = -1, i_in = -1, i_s[3] = {-1, -1, -1}, i_tee[3] = {-1, -1, -1};
    /* A broken self-pipe is not polled (fd -1 is skipped by poll): the flags are checked on the timer. */
    p[n] = (struct pollfd){g->sig_pipe_broken ? -1 : g->sig_pipe[0], POLLIN, 0}; n++;
    i_listen = n; p[n++] = (struct pollfd){g->listen_fd, POLLIN, 0};
    if (g->conn_fd >= 0) {
      /* Input the child has not taken yet is bounded too: past the limit, the owner's frames wait. */
      /* While closing, input is read to be dropped (owner_discard), until the owner's EOF. */
      int take = g->closing ? !g->peer_done : bytes_len(&g->in) < OUT_LIMIT;
      short ev = (short)((take ? POLLIN : 0) | (bytes_len(&g->out) > 0 && (g->authed || g->closing) ? POLLOUT : 0));
      i_conn = n; p[n++] = (struct pollfd){g->conn_fd, ev, 0};
    }
    /* Unowned (--adoptable): output is read at the child's pace and kept only in the rings (orphan.c). */
    int discard = (g->conn_fd < 0 && g->exit_after_term) || orphaned(g);
    for (int i = 1; i < 3; i++) {
      /* collect --live (capture.c): while the tee's reader has not taken the last bytes, the pipe waits. */
      int tee = capture_tee_waiting(g, i);
      if (tee >= 0) {
        i_tee[i] = n; p[n++] = (struct pollfd){tee, POLLOUT, 0};
      } else if (g->s[i].fd >= 0 && (discard || bytes_len(&g->out) < OUT_LIMIT)) {
        i_s[i] = n; p[n++] = (struct pollfd){g->s[i].fd, POLLIN, 0};
      }
    }
    if (g->c.in_fd >= 0 && (bytes_len(&g->in) > 0 || g->n_close_ids > 0)) {
      i_in = n; p[n++] = (struct pollfd){g->c.in_fd, POLLOUT, 0};
    }
    long long now = now_ms(), due = 0;
    if (g->conn_fd >= 0 && (!g->authed || g->closing)) due = earliest(due, g->conn_deadline);
    if (!g->ever_owned) due = earliest(due, g->connect_deadline);
    due = earliest(due, g->linger_deadline);
    if (orphaned(g)) due = earliest(due, g->orphan_deadline);
    due = earliest(due, capture_due(g));
    due = earliest(due, socket_watch_due(g, now));
    if (g->reaped && !g->exited_sent) due = earliest(due, g->drain_deadline);
    if (g->term_active) due = earliest(due, now + 10); /* the census is polled while a terminate runs */
    if (g->hold_deadline) due = earliest(due, now + 50); /* the children held may go without a SIGCHLD we see */
    if (g->sig_pipe_broken || g->wait_errno) due = earliest(due, now + 20);
    int timeout = due == 0 ? -1 : due <= now ? 0 : (int)(due - now);
    int rc = poll(p, (nfds_t)n, timeout);
    /*
     * EINTR (a signal) is handled below as an empty round, a few times in a
     * row. Past that (poll keeps failing, whatever the error) the loop must
     * neither spin nor stop: it pauses 5 ms and tries every descriptor as if
     * ready (all are non-blocking), so the child is still supervised and the
     * owner still answered.
     */
    if (rc < 0 && errno == EINTR && ++g->poll_failures < 4) {
      rc = 0;
    } else if (rc < 0) {
      owner_fault(g, "waiting for events (every descriptor is now tried every 5 ms)", "poll", errno, 0);
      sleep_ms(timeout == 0 ? 0 : 5);
      for (int k = 0; k < n; k++) p[k].revents = p[k].fd < 0 ? 0 : p[k].events;
      rc = n;
    } else {
      g->poll_failures = 0;
    }
    if (g->sig_pipe_broken || term_flag) drain_signals(g);
    if (rc > 0) {
      if (p[0].revents && !g->sig_pipe_broken) drain_signals(g);
      /* The owner's connection first: a new owner (agent restart) may connect in the same
         round as the old one's hangup, and must not be refused as "busy" by a dead connection. */
      if (i_conn >= 0 && g->conn_fd >= 0 && p[i_conn].revents) {
        if (p[i_conn].revents & (POLLIN | POLLHUP | POLLERR)) {
          if (g->closing) owner_discard(g);
          else owner_readable(g);
        }
        if (g->conn_fd >= 0 && p[i_conn].revents & POLLOUT) owner_flush(g);
      }
      if (i_listen >= 0 && p[i_listen].revents & POLLIN) owner_accept(g);
      for (int i = 1; i < 3; i++) {
        if (i_s[i] >= 0 && g->s[i].fd >= 0 && p[i_s[i]].revents) stream_readable(g, i, discard);
        if (i_tee[i] >= 0 && p[i_tee[i]].revents) capture_tee_writable(g, i);
      }
      if (i_in >= 0 && g->c.in_fd >= 0 && p[i_in].revents) stdin_writable(g);
    }
    reap(g);
    timers(g, now_ms());
    terminate_step(g);
    if (g->conn_fd >= 0 && (g->authed || g->closing) && bytes_len(&g->out) > 0) owner_flush(g);
    if (g->closing && g->conn_fd >= 0 && bytes_len(&g->out) == 0) owner_closing_flushed(g);
  }
}

/* Before exiting, the owner gets what is queued (bounded: it may be gone). */
static void final_flush(struct guardian *g) {
  long long until = now_ms() + 2000;
  while (g->conn_fd >= 0 && bytes_len(&g->out) > 0 && now_ms() < until) {
    struct pollfd p = {g->conn_fd, POLLOUT, 0};
    int rc = poll(&p, 1, 100);
    if (rc < 0) sleep_ms(5); /* poll failing: the write below is non-blocking anyway */
    if (rc != 0) owner_flush(g);
  }
}

/* Nothing started yet: what was set up is let go (the sanitizer build checks for leaks); status 1. */
static int start_failed(struct guardian *g, int conn) {
  if (conn >= 0) close(conn);
  for (int i = 0; i < 2; i++) {
    if (g->sig_pipe[i] >= 0) close(g->sig_pipe[i]);
  }
  free(g->rbuf);
  return 1;
}

int guardian_run(struct options *o) {
  struct guardian g;
  memset(&g, 0, sizeof g);
  g.o = o;
  g.conn_fd = -1;
  g.c.pid = 0;
  g.c.master = g.c.in_fd = -1;
  for (int i = 0; i < 3; i++) g.s[i].fd = g.s[i].spill_fd = g.c.out_fd[i] = -1;
  g.job_spill_fd = -1;
  g.rbuf = malloc(o->max_payload + 4);
  if (g.rbuf == NULL) return 1;
#ifdef __linux__
  /* orphans of the tree come back to us, findable */
  g.subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
#endif
  g.listen_fd = -1; /* poll skips it when there is no socket (--owner-fd, --owner-connect) */
  g.sig_pipe[0] = g.sig_pipe[1] = -1;
  if (setup_signals(&g) != 0) return start_failed(&g, -1);
  if (o->owner_fd >= 0) {
    if (owner_attach(&g, o->owner_fd) != 0) {
      fprintf(stderr, "corral-guardian: --owner-fd %d: %s\n", o->owner_fd, strerror(errno));
      return start_failed(&g, -1);
    }
  } else if (o->owner_connect != NULL) {
    /* Before any child: a path that cannot be reached ends us with nothing started. */
    int fd = owner_dial(o->owner_connect);
    if (fd < 0 || owner_attach(&g, fd) != 0) {
      fprintf(stderr, "corral-guardian: --owner-connect %s: %s\n", o->owner_connect, strerror(errno));
      return start_failed(&g, fd);
    }
  } else if (setup_socket(&g) != 0) {
    return start_failed(&g, -1);
  }
  if (o->ready_fd >= 0) {
    char line[600];
    int n = snprintf(line, sizeof line, "ready %d %d\n", GUARDIAN_PROTOCOL_VERSION, (int)getpid());
    ssize_t w = write(o->ready_fd, line, (size_t)n);
    (void)w;
    close(o->ready_fd);
  }
  g.connect_deadline = now_ms() + o->connect_timeout_ms;
  serve(&g);
  final_flush(&g);
  if (g.conn_fd >= 0) close(g.conn_fd);
  if (o->socket_path != NULL) unlink(o->socket_path);
  if (g.listen_fd >= 0) close(g.listen_fd);
  bytes_free(&g.out);
  bytes_free(&g.in);
  orphan_free(&g);
  job_spill_close(&g);
  for (int i = 1; i < 3; i++) capture_free(&g.s[i]); /* a stream that never reached EOF */
  free(g.rbuf);
  return g.cannot_serve ? GUARDIAN_EXIT_CANNOT_SERVE : 0;
}
