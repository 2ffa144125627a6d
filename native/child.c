/*
 * Starting the supervised child: pipes or a PTY, its own process group (or
 * session, for a PTY), exactly fds 0, 1 and 2, default signal dispositions.
 * An exec failure comes back as an errno over a close-on-exec pipe.
 *
 * Man pages: fork(2), execvp(3), pipe2(2), dup2(2), setsid(2), setpgid(2),
 * posix_openpt(3), grantpt(3), unlockpt(3), ptsname(3), ioctl_tty(2),
 * sigaction(2), sigprocmask(2), fcntl(2) (F_SETPIPE_SZ).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "guardian.h"

static int cloexec_pipe(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC);
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return 0;
#endif
}

static void nonblocking(int fd) {
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int open_master(void) {
#ifdef __linux__
  int m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
#else
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m >= 0) fcntl(m, F_SETFD, FD_CLOEXEC);
#endif
  if (m < 0) return -1;
  if (grantpt(m) != 0 || unlockpt(m) != 0) {
    close(m);
    return -1;
  }
  return m;
}

/* execv of --file when given (the owner resolved the program), else a PATH search. */
static void exec_child(const struct options *o) {
  if (o->file) execv(o->file, o->argv);
  else execvp(o->argv[0], o->argv);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child_fail(int errpipe, int err) {
  ssize_t w = write(errpipe, &err, sizeof err);
  (void)w;
  _exit(127);
}

static void child_reset_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int s = 1; s < 32; s++) {
    if (s == SIGKILL || s == SIGSTOP) continue;
    sigaction(s, &sa, NULL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child_move_fd(int from, int to, int errpipe) {
  if (from == to) {
    int fl = fcntl(from, F_GETFD);
    if (fl >= 0) fcntl(from, F_SETFD, fl & ~FD_CLOEXEC);
    return;
  }
  if (dup2(from, to) < 0) child_fail(errpipe, errno);
}

static void child_run_pty(const struct options *o, const char *slave_name, int errpipe) {
  if (setsid() < 0) child_fail(errpipe, errno);
  int s = open(slave_name, O_RDWR);
  if (s < 0) child_fail(errpipe, errno);
#ifdef TIOCSCTTY
  ioctl(s, TIOCSCTTY, 0); /* Linux already made it ours on open; BSDs need this */
#endif
  for (int fd = 0; fd < 3; fd++) child_move_fd(s, fd, errpipe);
  if (s > 2) close(s);
  if (getenv("TERM") == NULL) setenv("TERM", "xterm-256color", 1);
  if (o->cwd && chdir(o->cwd) != 0) child_fail(errpipe, errno);
  exec_child(o);
  child_fail(errpipe, errno);
}

/* fds[i]: the descriptor the child gets as fd i, already open. */
static void child_run_pipe(const struct options *o, int fds[3], int errpipe) {
  if (o->new_pgid && setpgid(0, 0) != 0) child_fail(errpipe, errno);
  /* Move every source above 2 first so a dup2 never clobbers a later source. */
  int moved[3];
  for (int i = 0; i < 3; i++) {
    moved[i] = fds[i] <= 2 && fds[i] != i ? fcntl(fds[i], F_DUPFD_CLOEXEC, 3) : fds[i];
    if (moved[i] < 0) child_fail(errpipe, errno);
  }
  for (int i = 0; i < 3; i++) child_move_fd(moved[i], i, errpipe);
  if (o->cwd && chdir(o->cwd) != 0) child_fail(errpipe, errno);
  exec_child(o);
  child_fail(errpipe, errno);
}

static int spawn_pty(const struct options *o, struct child *c, int errpipe[2]) {
  int m = open_master();
  if (m < 0) return -1;
  struct winsize ws = {(unsigned short)o->rows, (unsigned short)o->cols, 0, 0};
  ioctl(m, TIOCSWINSZ, &ws);
  char name[256];
#ifdef __linux__
  if (ptsname_r(m, name, sizeof name) != 0) { close(m); return -1; }
#else
  const char *pn = ptsname(m);
  if (pn == NULL || strlen(pn) >= sizeof name) { close(m); return -1; }
  strcpy(name, pn);
#endif
  pid_t pid = fork();
  if (pid < 0) { close(m); return -1; }
  if (pid == 0) {
    close(errpipe[0]);
    child_reset_signals();
    child_run_pty(o, name, errpipe[1]);
  }
  nonblocking(m);
  c->pid = pid;
  c->master = m;
  c->in_fd = m;
  c->out_fd[STREAM_STDOUT] = m;
  return 0;
}

static int spawn_pipes(const struct options *o, struct child *c, int errpipe[2]) {
  int ends[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
  int give[3] = {-1, -1, -1};
  int devnull = -1;
  for (int i = 0; i < 3; i++) {
    if (o->io[i] == IO_PIPE && o->direct_fd[i] >= 0) {
      give[i] = o->direct_fd[i]; /* collect's direct spill: the file itself, no pipe */
    } else if (o->io[i] == IO_PIPE) {
      if (cloexec_pipe(ends[i]) != 0) return -1;
      give[i] = i == 0 ? ends[i][0] : ends[i][1];
#ifdef F_SETPIPE_SZ
      if (i > 0) fcntl(ends[i][0], F_SETPIPE_SZ, 1024 * 1024); /* fewer wake-ups per byte */
#endif
    } else if (o->io[i] == IO_NULL) {
      if (devnull < 0) devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
      if (devnull < 0) return -1;
      give[i] = devnull;
    } else if (o->io[i] == IO_INHERIT) {
      give[i] = i;
    }
  }
  if (o->io[2] == IO_MERGE) give[2] = give[1];
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(errpipe[0]);
    child_reset_signals();
    child_run_pipe(o, give, errpipe[1]);
  }
  if (devnull >= 0) close(devnull);
  for (int i = 0; i < 3; i++) {
    if (ends[i][0] < 0) continue;
    int ours = i == 0 ? ends[i][1] : ends[i][0];
    close(i == 0 ? ends[i][0] : ends[i][1]);
    nonblocking(ours);
    if (i == 0) c->in_fd = ours;
    else c->out_fd[i] = ours;
  }
  c->pid = pid;
  return 0;
}

int child_spawn(const struct options *o, struct child *c) {
  int errpipe[2];
  c->in_fd = -1;
  c->out_fd[0] = c->out_fd[1] = c->out_fd[2] = -1;
  c->master = -1;
  c->exec_errno = 0;
  if (cloexec_pipe(errpipe) != 0) return -1;
  int rc = o->pty ? spawn_pty(o, c, errpipe) : spawn_pipes(o, c, errpipe);
  int saved = errno;
  close(errpipe[1]);
  if (rc != 0) {
    close(errpipe[0]);
    errno = saved;
    return -1;
  }
  int err = 0;
  ssize_t got;
  do got = read(errpipe[0], &err, sizeof err); while (got < 0 && errno == EINTR);
  close(errpipe[0]);
  if (got == (ssize_t)sizeof err) c->exec_errno = err;
  pid_t pp, pg, sid;
  char st;
  if (proc_stat(c->pid, &pp, &pg, &sid, &c->start_time, &st) == 0) {
    c->pgid = pg;
    c->sid = sid;
  } else {
    c->pgid = getpgid(c->pid);
    c->sid = getsid(c->pid);
  }
  return 0;
}
