/*
 * What the native client's two loops share: the one-shot command line
 * (corral-client.c) and the served `connect` (connect-lines.c). Finding and
 * trusting the agent's socket, the request, and handing over to the
 * JavaScript CLI are written once, in corral-client.c.
 */
#ifndef CORRAL_CLIENT_H
#define CORRAL_CLIENT_H

#include <stddef.h>

extern int g_argc;
extern char **g_argv;

/* Execs the JavaScript CLI with the same argv; never returns. */
void hand_over(void);
/* This binary's directory (dist/) and `up` levels above it, no trailing slash; 0 or -1. */
int install_dir(char *out, size_t size, int up);
/* Where the agent listens (--socket, $CORRAL_SOCKET, the state dir); 0 or -1. */
int socket_path(char *out, size_t size);
/* A connected socket whose directory, file and listener are the caller's; -1 otherwise. */
int connect_trusted(const char *path);
int write_all(int fd, const void *data, size_t size);
/* write_all for the agent's socket: a closed connection is -1 (EPIPE), never SIGPIPE. */
int send_all(int fd, const void *data, size_t size);
/*
 * Sends the hello and the command line (`lines`: a connect that pushes its
 * stdin; `adopt`: the token of its dropped stdin and stdout, or NULL); 0,
 * -1 (I/O) or -2 (cannot be sent).
 */
int send_request(int fd, int lines, const char *adopt);
long json_number_field(const char *json, const char *key);
void report_failure(const char *json);

/* argv is `connect`, with at most --socket PATH: the form the agent serves. */
int is_plain_connect(void);
/* Serves `corral connect` through the agent, or hands it over; returns the exit status. */
int serve_connect(int native_only);

#endif
