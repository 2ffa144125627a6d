/*
 * `corral connect` through the native client: JSON lines in on stdin, one
 * reply line each on stdout. The JavaScript CLI's connect is a relay
 * process between stdio and the agent's socket: each lockstep request
 * crossed two processes and two event loops, and the relay's own parse and
 * write cost about as much as the agent's answer. Here the client pushes
 * its stdin to the agent as it comes, and the agent answers each line as a
 * request of this very connection (cli/commands/connect/served-lines.ts),
 * by the rules the JavaScript relay applies; this loop only moves bytes.
 *
 * Handed over to the JavaScript CLI, untouched, before any of stdin is
 * read: a stdin that starts with a NUL byte (the framed preamble a remote
 * caller sends over ssh: lib/agent/client/remote/), which is peeked, not
 * read (recv MSG_PEEK on a socket, tee(2) on a pipe, pread on a file);
 * CORRAL_HOST; no agent of ours yet (the JavaScript CLI starts one); an
 * agent that refuses the hello or does not serve connect.
 *
 * Stdout carries only the agent's reply lines. If the agent goes away
 * mid-conversation, every line it did not answer, and every later one, gets
 * `{"ok":false,"error":{"code":"agent_gone",...}}` (with its `ref`, copied
 * as written), and the exit status is 1, as the JavaScript CLI does.
 *
 * Man pages: poll(2), tee(2), recv(2) (MSG_PEEK), send(2) (MSG_NOSIGNAL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adopt-stdio.h"
#include "client-protocol.h"
#include "client.h"
#include "pending-lines.h"

int is_plain_connect(void) {
    if (g_argc < 2 || strcmp(g_argv[1], "connect") != 0) return 0;
    if (g_argc == 2) return 1;
    if (g_argc == 3) return strncmp(g_argv[2], "--socket=", 9) == 0;
    return g_argc == 4 && strcmp(g_argv[2], "--socket") == 0;
}

/* 1: stdin starts with a NUL byte; 0: it does not, or is empty; -1: it cannot be told without reading. */
static int starts_with_nul(void) {
    struct stat st;
    if (fstat(0, &st) != 0) return -1; /* no stdin: the socket would take its descriptor */
    unsigned char c = 1;
    ssize_t n;
    if (S_ISSOCK(st.st_mode)) {
        do n = recv(0, &c, 1, MSG_PEEK);
        while (n < 0 && errno == EINTR);
        return n < 0 ? -1 : n == 1 && c == 0;
    }
    if (S_ISFIFO(st.st_mode)) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) return -1;
        do n = tee(0, p[1], 1, 0);
        while (n < 0 && errno == EINTR);
        int r = n < 0 ? -1 : n == 0 ? 0 : (read(p[0], &c, 1) == 1 && c == 0);
        close(p[0]);
        close(p[1]);
        return r;
    }
    if (S_ISREG(st.st_mode)) {
        off_t at = lseek(0, 0, SEEK_CUR);
        n = at < 0 ? -1 : pread(0, &c, 1, at);
        return n < 0 ? -1 : n == 1 && c == 0;
    }
    return S_ISCHR(st.st_mode) ? 0 : -1; /* a terminal (a person types JSON) or /dev/null */
}


static void put_frame(struct buf *b, unsigned tag, const void *body, size_t n) {
    uint32_t len = (uint32_t)n + 1;
    unsigned char head[5] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8), (unsigned char)len, (unsigned char)tag};
    buf_put(b, head, 5);
    if (n > 0) buf_put(b, body, n);
}


/*
 * The agent that took stdin and stdout is gone: the lines it read and did
 * not answer, from the ledger, get agent_gone as relayed ones do (a reply it
 * left half written is ended first); then stdin is read here again. 1 when
 * any line was answered so.
 */
static int answer_unanswered(const struct adoption *a, struct pending *p) {
    const unsigned char *held;
    size_t len;
    int state = adopt_ledger(a, &held, &len);
    if (state == CORRAL_LEDGER_UNKNOWN) {
        /* Which lines it answered cannot be told: one reply says so, without a ref. */
        static const char line[] = "{\"ok\":false,\"error\":{\"code\":\"agent_gone\",\"message\":\"the agent connection was lost: the agent closed the connection (lines it had read may have no reply)\"}}\n";
        if (write_all(1, line, sizeof line - 1) != 0) exit(141);
        return 1;
    }
    if (state == CORRAL_LEDGER_PARTIAL && write_all(1, "\n", 1) != 0) exit(141);
    if (len > 0) pending_add(p, held, len);
    return answer_gone(p, 0);
}

int serve_connect(int native_only) {
    const char *host = getenv("CORRAL_HOST");
    int nul = starts_with_nul();
    char path[PATH_MAX];
    int fd = -1;
    if ((host == NULL || host[0] == '\0') && nul == 0) fd = socket_path(path, sizeof path) == 0 ? connect_trusted(path) : -1;
    struct adoption adoption = {0};
    adoption.ledger = MAP_FAILED;
    if (fd >= 0) adopt_prepare(path, &adoption);
    if (fd < 0 || send_request(fd, 1, adoption.dropped ? adoption.token : NULL) != 0) {
        if (native_only) {
            fprintf(stderr, "corral: CORRAL_CLIENT=native: connect is served only locally, to JSON lines, by an agent of yours that runs\n");
            return 125;
        }
        hand_over();
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    struct buf rx = {0}, tx = {0};
    struct pending pend = {0};
    static unsigned char chunk[CORRAL_INPUT_FRAME_BYTES];
    int started = 0, adopted = 0, input_ended = 0, gone = 0, lost = 0;
    for (;;) {
        struct pollfd pfd[2] = {{gone ? -1 : fd, POLLIN, 0}, {-1, POLLIN, 0}};
        if (tx.len > 0) pfd[0].events |= POLLOUT;
        if ((started || gone) && !input_ended && tx.len == 0) pfd[1].fd = 0;
        if (pfd[0].fd < 0 && pfd[1].fd < 0) break;
        if (poll(pfd, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (pfd[1].revents != 0) {
            ssize_t n;
            do n = read(0, chunk, sizeof chunk);
            while (n < 0 && errno == EINTR);
            if (n <= 0) input_ended = 1;
            else pending_add(&pend, chunk, (size_t)n);
            if (gone) lost |= answer_gone(&pend, input_ended);
            else put_frame(&tx, CORRAL_TAG_INPUT, chunk, n > 0 ? (size_t)n : 0);
        }
        /* Sent at once (non-blocking): only what the socket does not take waits for POLLOUT. */
        if (!gone && tx.len > 0) {
            ssize_t n = send(fd, tx.data, tx.len, MSG_NOSIGNAL);
            if (n > 0) buf_drop(&tx, (size_t)n);
            else if (n < 0 && errno != EAGAIN && errno != EINTR) gone = 1;
        }
        if (!gone && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            unsigned char in[65536];
            ssize_t n = read(fd, in, sizeof in);
            if (n > 0) buf_put(&rx, in, (size_t)n);
            else if (n == 0 || (errno != EAGAIN && errno != EINTR)) gone = 1;
        }
        /* The frames that came, before a loss is dealt with: their answers count. */
        size_t at = 0;
        while (rx.len - at >= 4) {
            unsigned char *h = rx.data + at;
            uint32_t n = ((uint32_t)h[0] << 24) | ((uint32_t)h[1] << 16) | ((uint32_t)h[2] << 8) | h[3];
            if (n == 0 || n > CORRAL_MAX_FRAME_BYTES + 1) {
                fputs("corral: connect: a bad frame from the agent; closing\n", stderr);
                return 125;
            }
            if (rx.len - at < 4 + (size_t)n) break;
            unsigned char *body = h + 4;
            at += 4 + (size_t)n;
            if (body[0] == CORRAL_TAG_INPUT) {
                if (n >= 2 && body[1] == CORRAL_ADOPTED && adoption.dropped) adopted = 1; /* the agent reads and answers: this client waits */
                else started = 1;
            } else if (body[0] == CORRAL_TAG_OUTPUT && n >= 2) {
                if (write_all(body[1] == 2 ? 2 : 1, body + 2, n - 2) != 0) return 141;
                if (body[1] == 2) continue;
                for (uint32_t i = 2; i < n; i++) {
                    size_t len;
                    if (body[i] == '\n' && pending_next(&pend, input_ended, &len)) pending_drop_line(&pend);
                }
            } else if (body[0] == CORRAL_TAG_JSON) {
                char *json = malloc(n);
                if (json == NULL) return 125;
                memcpy(json, body + 1, n - 1);
                json[n - 1] = '\0';
                long id = json_number_field(json, "id");
                int ok = strstr(json, "\"ok\":true") != NULL;
                if ((id == 1 || id == 2) && !ok && !started && !adopted) {
                    free(json);
                    if (native_only) {
                        fputs("corral: CORRAL_CLIENT=native: the agent does not serve this connect (another protocol version?)\n", stderr);
                        return 125;
                    }
                    hand_over(); /* nothing of stdin was read: the JavaScript CLI says what it always says */
                }
                if (id == 2 || (id == 0 && !ok)) {
                    long status = ok ? json_number_field(json, "status") : 125;
                    adopt_restore(&adoption);
                    if (!ok) report_failure(json);
                    free(json);
                    return status < 0 || status > 255 ? 125 : (int)status;
                }
                free(json);
            }
        }
        buf_drop(&rx, at);
        if (gone && fd >= 0) {
            close(fd);
            fd = -1;
            tx.len = 0;
            if (adopted) {
                adopt_restore(&adoption);
                lost |= answer_unanswered(&adoption, &pend);
                adopted = 0;
                started = 1;
            } else if (!started) {
                if (native_only) {
                    fputs("corral: CORRAL_CLIENT=native: the agent closed the connection before connect began\n", stderr);
                    return 125;
                }
                hand_over(); /* it was stopping: the JavaScript CLI starts another */
            }
            lost |= answer_gone(&pend, input_ended);
        }
        if (gone && input_ended) break;
    }
    return lost ? 1 : 0;
}
