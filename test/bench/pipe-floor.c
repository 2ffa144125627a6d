/*
 * The least a reader of a pipe can cost (collect-spill.bench.ts, issue 12):
 * `pipe-floor read` reads stdin into one reused 1 MiB buffer and does
 * nothing with the bytes; `pipe-floor write FILE` writes each read to FILE;
 * `pipe-floor splice FILE` has the kernel move them into FILE, so none
 * reach user space (slower than read and write on this machine's ext4).
 * All first ask for a 1 MiB pipe, as the guardian does. Any tool that takes its command's output through a
 * pipe (collect does) costs at least this much more than the command alone.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buffer[1 << 20];

int main(int argc, char **argv) {
  (void)fcntl(0, F_SETPIPE_SZ, 1 << 20); /* refused: a 64 KiB pipe, slower but still correct */
  if (argc == 2 && strcmp(argv[1], "read") == 0) {
    ssize_t n;
    while ((n = read(0, buffer, sizeof buffer)) > 0) continue;
    return n < 0;
  }
  if (argc == 3 && strcmp(argv[1], "write") == 0) {
    int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) return perror(argv[2]), 1;
    ssize_t n;
    while ((n = read(0, buffer, sizeof buffer)) > 0) {
      for (ssize_t done = 0; done < n;) {
        ssize_t w = write(out, buffer + done, (size_t)(n - done));
        if (w < 0) return perror(argv[2]), 1;
        done += w;
      }
    }
    return n < 0;
  }
  if (argc == 3 && strcmp(argv[1], "splice") == 0) {
    int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0) return perror(argv[2]), 1;
    ssize_t n;
    while ((n = splice(0, NULL, out, NULL, sizeof buffer, 0)) > 0) continue;
    return n < 0;
  }
  fprintf(stderr, "usage: pipe-floor read | pipe-floor write FILE | pipe-floor splice FILE\n");
  return 2;
}
