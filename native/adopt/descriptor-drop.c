/*
 * corral-adopt.node: lets the agent take over a client's standard input
 * and output, as tmux's server takes its control client's. `corral
 * connect` through the native client used to relay every JSON line between
 * its stdio and the agent's socket: each request crossed two more
 * processes' wakeups, a fifth of a lockstep send+screen pair (issue 33).
 * No JavaScript runtime's Unix socket can receive descriptors
 * (SCM_RIGHTS), so this addon does that one thing:
 *
 *   bind(path)          a datagram socket at `path` (mode 0600, in the
 *                       agent's private state directory): the drop;
 *   receive(fd)         the next datagram waiting at the drop, as
 *                       {token, fds, pid, uid} (the sender's, from the
 *                       kernel: SO_PASSCRED), or null when none waits;
 *   map(fd, length)     a shared mapping of a client's ledger (a memfd)
 *                       as an ArrayBuffer, unmapped when collected.
 *
 * The client drops its descriptors and a random token before it sends the
 * request that names the token (lib/agent/server/descriptor-drop.ts says
 * how the agent matches them). Node-API only (node-api.h): loaded by Node,
 * Deno and Bun alike.
 *
 * Man pages: unix(7) (SCM_RIGHTS), recvmsg(2), cmsg(3), mmap(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "node-api.h"

/* A datagram's token: printable, at most this long (the client sends 32 hex digits). */
#define TOKEN_MAX 64
/* Descriptors one datagram may carry: stdin, stdout and the ledger. */
#define FDS_MAX 4

static napi_value fail(napi_env env, const char *what) {
    char message[256];
    snprintf(message, sizeof message, "%s: %s", what, strerror(errno));
    napi_throw_error(env, "ERR_CORRAL_ADOPT", message);
    return NULL;
}

static int args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
    size_t argc = want;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != 0 || argc < want) {
        napi_throw_error(env, "ERR_CORRAL_ADOPT", "missing argument");
        return -1;
    }
    return 0;
}

static napi_value bind_drop(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (args(env, info, 1, argv) != 0) return NULL;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t length = 0;
    if (napi_get_value_string_utf8(env, argv[0], addr.sun_path, sizeof addr.sun_path, &length) != 0) return NULL;
    if (length == 0 || length >= sizeof addr.sun_path - 1) {
        errno = ENAMETOOLONG;
        return fail(env, "bind");
    }
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return fail(env, "socket");
    struct stat st;
    if (lstat(addr.sun_path, &st) == 0 && S_ISSOCK(st.st_mode)) unlink(addr.sun_path); /* a drop left by a killed agent */
    int on = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return fail(env, "setsockopt");
    }
    mode_t old = umask(0177);
    int rc = bind(fd, (struct sockaddr *)&addr, sizeof addr);
    umask(old);
    if (rc != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return fail(env, "bind");
    }
    napi_value result;
    napi_create_int32(env, fd, &result);
    return result;
}

static napi_value receive(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (args(env, info, 1, argv) != 0) return NULL;
    int32_t fd;
    if (napi_get_value_int32(env, argv[0], &fd) != 0) return NULL;
    for (;;) {
        char token[TOKEN_MAX + 1];
        union {
            struct cmsghdr align;
            char space[CMSG_SPACE(sizeof(int) * FDS_MAX) + CMSG_SPACE(sizeof(struct ucred))];
        } control;
        struct iovec iov = {token, TOKEN_MAX};
        struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space};
        ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                napi_value none;
                napi_get_null(env, &none);
                return none;
            }
            return fail(env, "recvmsg");
        }
        int fds[FDS_MAX];
        size_t count = 0;
        struct ucred cred = {.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len >= CMSG_LEN(sizeof cred)) memcpy(&cred, CMSG_DATA(c), sizeof cred);
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int got;
                memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
                if (count < FDS_MAX) fds[count++] = got;
                else close(got);
            }
        }
        int printable = n > 0 && !(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC));
        for (ssize_t i = 0; printable && i < n; i++) printable = token[i] > ' ' && token[i] < 127 && token[i] != '"';
        if (!printable) { /* not a client's drop: nothing of it is kept */
            for (size_t i = 0; i < count; i++) close(fds[i]);
            continue;
        }
        napi_value result, text, list, pid, uid;
        napi_create_object(env, &result);
        napi_create_string_utf8(env, token, (size_t)n, &text);
        napi_create_array_with_length(env, count, &list);
        for (size_t i = 0; i < count; i++) {
            napi_value v;
            napi_create_int32(env, fds[i], &v);
            napi_set_element(env, list, (uint32_t)i, v);
        }
        napi_create_int32(env, cred.pid, &pid);
        napi_create_int32(env, (int32_t)cred.uid, &uid);
        napi_set_named_property(env, result, "token", text);
        napi_set_named_property(env, result, "fds", list);
        napi_set_named_property(env, result, "pid", pid);
        napi_set_named_property(env, result, "uid", uid);
        return result;
    }
}

static void unmap(napi_env env, void *data, void *hint) {
    (void)env;
    munmap(data, (size_t)hint);
}

static napi_value map(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    if (args(env, info, 2, argv) != 0) return NULL;
    int32_t fd, length;
    if (napi_get_value_int32(env, argv[0], &fd) != 0 || napi_get_value_int32(env, argv[1], &length) != 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) return fail(env, "fstat");
    if (!S_ISREG(st.st_mode) || length <= 0 || st.st_size < length) {
        errno = EINVAL;
        return fail(env, "map");
    }
    void *data = mmap(NULL, (size_t)length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) return fail(env, "mmap");
    napi_value result;
    if (napi_create_external_arraybuffer(env, data, (size_t)length, unmap, (void *)(size_t)length, &result) != 0) {
        munmap(data, (size_t)length);
        napi_throw_error(env, "ERR_CORRAL_ADOPT", "this runtime does not lend memory to an ArrayBuffer");
        return NULL;
    }
    return result;
}

napi_value napi_register_module_v1(napi_env env, napi_value exports);
napi_value napi_register_module_v1(napi_env env, napi_value exports) {
    static const struct {
        const char *name;
        napi_callback cb;
    } table[] = {{"bind", bind_drop}, {"receive", receive}, {"map", map}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        napi_value fn;
        if (napi_create_function(env, table[i].name, strlen(table[i].name), table[i].cb, NULL, &fn) != 0) return NULL;
        napi_set_named_property(env, exports, table[i].name, fn);
    }
    return exports;
}
