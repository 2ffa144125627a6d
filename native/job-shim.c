/*
 * corral-job-shim: makes Ctrl-Z work for a job on a PTY.
 *
 * Why it exists: the guardian starts a PTY child with setsid(), so the child
 * leads its own session and its process group has no parent inside that
 * session. POSIX calls such a group orphaned, and the kernel discards the
 * stop action of SIGTSTP/SIGTTIN/SIGTTOU for orphaned groups (Linux
 * kernel/signal.c, is_current_pgrp_orphaned): Ctrl-Z would do nothing.
 * A shell avoids this by staying in the session as the jobs' parent; this
 * shim does the same, and nothing else.
 *
 * What it does: it is the session leader the guardian started. It forks
 * COMMAND into a new process group of the same session, makes that group
 * the terminal's foreground group, and waits with WUNTRACED. When COMMAND
 * stops, the shim stops itself with SIGSTOP (never discarded), so the
 * guardian's waitpid reports the stop of its direct child. When the shim is
 * continued (SIGCONT to the tree), it continues COMMAND's group too. When
 * COMMAND ends, the shim ends the same way (same code, or the same signal),
 * so the guardian's exit facts are COMMAND's. Termination signals sent to
 * the shim alone are passed on to COMMAND's group.
 *
 * Usage: corral-job-shim COMMAND [ARGS...]   (fd 0 must be the PTY slave)
 *
 * Man pages: setpgid(2), tcsetpgrp(3), waitpid(2) (WUNTRACED, WCONTINUED),
 * sigaction(2), sigprocmask(2), execvp(3), setrlimit(2), credentials(7)
 * (orphaned process groups), signal(7).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t child_pgid = 0;

/* Termination requests aimed at the shim go to COMMAND's group. */
static void forward(int sig) {
  if (child_pgid > 0) kill(-child_pgid, sig);
}

static void default_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int s = 1; s < 32; s++) {
    if (s == SIGKILL || s == SIGSTOP) continue;
    sigaction(s, &sa, NULL);
  }
}

/* Ends the shim the way COMMAND ended, so waitpid in the guardian sees the same status. */
static void end_like(int status) {
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  int sig = WTERMSIG(status);
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none); /* COMMAND's core is the one that matters */
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  kill(getpid(), sig);
  _exit(128 + sig);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "corral-job-shim: usage: corral-job-shim COMMAND [ARGS...]\n");
    return 2;
  }
  sigset_t ttou, old;
  sigemptyset(&ttou);
  sigaddset(&ttou, SIGTTOU);
  pid_t pid = fork();
  if (pid < 0) {
    perror("corral-job-shim: fork");
    return 126;
  }
  if (pid == 0) {
    /* Own group, terminal's foreground, before exec: a read can never hit SIGTTIN. */
    sigprocmask(SIG_BLOCK, &ttou, &old);
    setpgid(0, 0);
    tcsetpgrp(0, getpid());
    default_signals();
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execvp(argv[1], argv + 1);
    int err = errno;
    fprintf(stderr, "corral-job-shim: %s: %s\n", argv[1], strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  /* The same two calls in the parent: whichever runs first wins, both are idempotent. */
  setpgid(pid, pid);
  sigprocmask(SIG_BLOCK, &ttou, &old);
  tcsetpgrp(0, pid);
  sigprocmask(SIG_SETMASK, &old, NULL);
  child_pgid = pid;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = forward;
  int passed[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};
  for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) sigaction(passed[i], &sa, NULL);
  for (;;) {
    int status = 0;
    pid_t got = waitpid(pid, &status, WUNTRACED);
    if (got < 0) {
      if (errno == EINTR) continue;
      perror("corral-job-shim: waitpid");
      return 125;
    }
    if (WIFSTOPPED(status)) {
      /* COMMAND stopped: stop too, so the guardian sees it; on SIGCONT wake COMMAND as well. */
      raise(SIGSTOP);
      kill(-pid, SIGCONT);
      continue;
    }
    end_like(status);
  }
}
