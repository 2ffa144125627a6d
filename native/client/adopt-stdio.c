/*
 * `corral connect`'s stdin and stdout handed to the agent, as tmux's control
 * client hands its own to the server: relayed, every lockstep request woke
 * this client twice (the line in, the reply out), a fifth of a send+screen
 * pair (issue 33). When both are pipes or sockets, the client drops them at
 * the agent's descriptor drop (the socket's path plus ".fds", a datagram
 * socket in the agent's private directory) with a random token and a ledger
 * (a memfd), then names the token in its request. An agent that takes them
 * answers the lines on them and tells the client with an input frame
 * holding CORRAL_ADOPTED; the client then only waits for the exit status.
 * The ledger holds the bytes of stdin the agent read and has not answered
 * (lib/agent/protocol/connect-ledger.ts): if the agent dies, connect-lines.c
 * answers those lines from it, as it answers the lines it relays.
 *
 * CORRAL_CONNECT_RELAY=1 keeps the relay (docs/native-client.md).
 *
 * Man pages: unix(7) (SCM_RIGHTS), memfd_create(2), getrandom(2), fcntl(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "adopt-stdio.h"
#include "client-protocol.h"

static int pipe_or_socket(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static int make_token(char out[33]) {
    unsigned char raw[16];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof raw; i++) snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

static int drop(const char *agent_socket, const char *token, int ledger) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (snprintf(addr.sun_path, sizeof addr.sun_path, "%s.fds", agent_socket) >= (int)sizeof addr.sun_path) return -1;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int fds[3] = {0, 1, ledger};
    union {
        struct cmsghdr align;
        char space[CMSG_SPACE(sizeof fds)];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)token, strlen(token)};
    struct msghdr msg = {.msg_name = &addr, .msg_namelen = sizeof addr, .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof fds);
    memcpy(CMSG_DATA(c), fds, sizeof fds);
    ssize_t n;
    do n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    close(fd);
    return n < 0 ? -1 : 0;
}

int adopt_prepare(const char *agent_socket, struct adoption *a) {
    memset(a, 0, sizeof *a);
    a->ledger = MAP_FAILED;
    const char *relay = getenv("CORRAL_CONNECT_RELAY");
    if (relay != NULL && relay[0] != '\0' && strcmp(relay, "0") != 0) return -1;
    if (!pipe_or_socket(0) || !pipe_or_socket(1)) return -1; /* a terminal or a file: this client reads it */
    if (make_token(a->token) != 0) return -1;
    int memfd = memfd_create("corral-connect-ledger", MFD_CLOEXEC);
    if (memfd < 0) return -1;
    if (ftruncate(memfd, CORRAL_LEDGER_BYTES) != 0) {
        close(memfd);
        return -1;
    }
    a->ledger = mmap(NULL, CORRAL_LEDGER_BYTES, PROT_READ, MAP_SHARED, memfd, 0);
    a->in_flags = fcntl(0, F_GETFL);
    a->out_flags = fcntl(1, F_GETFL);
    int dropped = a->ledger != MAP_FAILED && a->in_flags >= 0 && a->out_flags >= 0 ? drop(agent_socket, a->token, memfd) : -1;
    close(memfd); /* the mapping, and the agent's copy, keep it */
    if (dropped != 0) {
        if (a->ledger != MAP_FAILED) munmap(a->ledger, CORRAL_LEDGER_BYTES);
        a->ledger = MAP_FAILED;
        return -1;
    }
    a->dropped = 1;
    return 0;
}

void adopt_restore(const struct adoption *a) {
    /* The agent's sockets made them non-blocking, for every holder of the same pipe: as they were. */
    if (!a->dropped) return;
    fcntl(0, F_SETFL, a->in_flags);
    fcntl(1, F_SETFL, a->out_flags);
}

int adopt_ledger(const struct adoption *a, const unsigned char **held, size_t *len) {
    *held = NULL;
    *len = 0;
    if (a->ledger == MAP_FAILED) return CORRAL_LEDGER_UNKNOWN;
    const volatile uint32_t *words = (const volatile uint32_t *)a->ledger;
    if (words[CORRAL_LEDGER_WORD_MAGIC] != CORRAL_LEDGER_MAGIC) return CORRAL_LEDGER_UNKNOWN;
    uint32_t state = words[CORRAL_LEDGER_WORD_STATE];
    uint32_t start = words[CORRAL_LEDGER_WORD_START], end = words[CORRAL_LEDGER_WORD_END];
    if (state > CORRAL_LEDGER_UNKNOWN || end > CORRAL_LEDGER_BYTES - CORRAL_LEDGER_HEADER_BYTES) return CORRAL_LEDGER_UNKNOWN;
    if (end > start) {
        *held = (const unsigned char *)a->ledger + CORRAL_LEDGER_HEADER_BYTES + start;
        *len = end - start;
    }
    return (int)state;
}
