/*
 * Reaching the agent, for both of the native client's loops (corral-client.c,
 * connect-lines.c): where its socket is, the trust checks made before
 * anything is sent, and whole writes.
 *
 * Trust (the same checks as lib/agent/client/agent-trust.ts, plus the
 * kernel's word): the socket's directory is ours and closed to group and
 * others, the socket is a socket owned by us, and SO_PEERCRED names our uid
 * as the listener's. Otherwise nothing is sent.
 *
 * Man pages: unix(7) (SO_PEERCRED), connect(2), send(2) (MSG_NOSIGNAL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "client.h"

/* Where the agent listens: --socket, else $CORRAL_SOCKET, else the state dir (state-dir.ts). */
int socket_path(char *out, size_t size) {
    const char *chosen = NULL;
    for (int i = 1; i < g_argc; i++) {
        if (strcmp(g_argv[i], "--") == 0) break;
        if (strcmp(g_argv[i], "--socket") == 0 && i + 1 < g_argc) chosen = g_argv[i + 1];
        else if (strncmp(g_argv[i], "--socket=", 9) == 0) chosen = g_argv[i] + 9;
    }
    const char *env_socket = getenv("CORRAL_SOCKET");
    const char *state = getenv("CORRAL_STATE_DIR");
    const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
    char base[PATH_MAX];
    if (chosen != NULL && chosen[0] != '\0') snprintf(base, sizeof base, "%s", chosen);
    else if (env_socket != NULL && env_socket[0] != '\0') snprintf(base, sizeof base, "%s", env_socket);
    else if (state != NULL && state[0] != '\0') snprintf(base, sizeof base, "%s/agent.sock", state);
    else if (runtime_dir != NULL && runtime_dir[0] != '\0') snprintf(base, sizeof base, "%s/corral/agent.sock", runtime_dir);
    else snprintf(base, sizeof base, "/tmp/corral-%u/agent.sock", (unsigned)getuid());
    if (base[0] == '/') return snprintf(out, size, "%s", base) < (int)size ? 0 : -1;
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL) return -1;
    return snprintf(out, size, "%s/%s", cwd, base) < (int)size ? 0 : -1;
}

/* The checks of agent-trust.ts: a directory of ours closed to others, a socket of ours, a listener of our uid. */
int connect_trusted(const char *path) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL) return -1;
    if (slash == dir) slash[1] = '\0';
    else *slash = '\0';
    struct stat st;
    uid_t uid = getuid();
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & 077) != 0) return -1;
    if (lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != uid) return -1;
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof addr.sun_path) return -1;
    memcpy(addr.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != uid) {
        close(fd);
        return -1;
    }
    return fd;
}

int write_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/*
 * write_all for the agent's socket: an agent that closed it (it was stopping,
 * or was killed between our connect and this send) is an error to hand over
 * on, not a SIGPIPE that kills the client before it can (send(2), MSG_NOSIGNAL).
 */
int send_all(int fd, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}
