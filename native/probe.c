/*
 * corral-guardian --probe: tries each capability for real and prints one
 * line per capability: "<name> ok|missing core|optional <detail>".
 * Exits 0 only when the core ones (pty, proc, subreaper on Linux) work;
 * pidfds and splice are optional (without them: start-time checks, copies).
 *
 * Man pages: pidfd_open(2), pidfd_send_signal(2), prctl(2), posix_openpt(3),
 * ioctl_tty(2) (TIOCSCTTY, TIOCGPGRP), splice(2), proc(5).
 */
#ifdef __linux__
#define _GNU_SOURCE
#include <sys/prctl.h>
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "guardian.h"

static int failures;

static void line(const char *name, int ok, int core, const char *detail) {
  printf("%s %s %s %s\n", name, ok ? "ok" : "missing", core ? "core" : "optional", detail);
  if (!ok && core) failures++;
}

/* A child makes the PTY its controlling terminal and checks it is in the foreground. */
static int probe_pty(char *why, size_t cap) {
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
    snprintf(why, cap, "cannot allocate a PTY: %s", strerror(errno));
    return 0;
  }
  const char *name = ptsname(m);
  char slave[256];
  snprintf(slave, sizeof slave, "%s", name ? name : "");
  pid_t pid = fork();
  if (pid == 0) {
    if (setsid() < 0) _exit(10);
    int s = open(slave, O_RDWR);
    if (s < 0) _exit(11);
#ifdef TIOCSCTTY
    ioctl(s, TIOCSCTTY, 0);
#endif
    int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (tty < 0) _exit(12);
    _exit(tcgetpgrp(s) == getpgrp() ? 0 : 13);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) {
    close(m);
    snprintf(why, cap, "cannot fork: %s", strerror(errno));
    return 0;
  }
  close(m);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
    snprintf(why, cap, "%s becomes the controlling terminal of a new session", slave);
    return 1;
  }
  snprintf(why, cap, "the PTY did not become a controlling terminal (step %d)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  return 0;
}

int probe_run(void) {
  char why[512];
  pid_t pp, pg, sid;
  unsigned long long start = 0;
  char state;
  int proc = proc_stat(getpid(), &pp, &pg, &sid, &start, &state) == 0 && start > 0;
  line("proc", proc, 1, proc ? "/proc/PID/stat readable (census, start times)" : "/proc/self/stat unreadable");

  int pidfd = pidfd_open_compat(getpid());
  snprintf(why, sizeof why, "%s", pidfd >= 0 ? "pins processes against pid reuse" : strerror(errno));
  line("pidfd_open", pidfd >= 0, 0, why);
  int sent = pidfd >= 0 && pidfd_signal_compat(pidfd, 0) == 0;
  snprintf(why, sizeof why, "%s", sent ? "signals through a pidfd" : pidfd < 0 ? "needs pidfd_open" : strerror(errno));
  line("pidfd_send_signal", sent, 0, why);
  if (pidfd >= 0) close(pidfd);

  int pty = probe_pty(why, sizeof why);
  line("pty", pty, 1, why);

#ifdef __linux__
  int reaper = 0;
  int sub = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 && prctl(PR_GET_CHILD_SUBREAPER, &reaper, 0, 0, 0) == 0 && reaper;
  line("subreaper", sub, 1, sub ? "PR_SET_CHILD_SUBREAPER: orphans that setsid or double-fork stay ours" : strerror(errno));
  int fds[2];
  int spliced = 0;
  if (pipe(fds) == 0) {
    int null = open("/dev/null", O_WRONLY);
    ssize_t w = write(fds[1], "x", 1);
    spliced = w == 1 && null >= 0 && splice(fds[0], NULL, null, NULL, 1, 0) == 1;
    if (null >= 0) close(null);
    close(fds[0]);
    close(fds[1]);
  }
  line("splice", spliced, 0, spliced ? "a spill without capture moves bytes pipe -> file in the kernel (collect reads, counts and writes)" : "spill files are written by copying");
#else
  line("subreaper", 0, 1, "PR_SET_CHILD_SUBREAPER is Linux-only");
  line("splice", 0, 0, "Linux-only; spill files are written by copying");
#endif
  fflush(stdout);
  return failures == 0 ? 0 : 1;
}
