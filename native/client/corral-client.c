/*
 * corral's native client: the first thing the `corral` command runs.
 *
 * Why: a script that drives a terminal makes thousands of corral calls, and
 * each call of the JavaScript CLI pays a runtime's start (tens of ms) before
 * any work, while the agent answers in well under a millisecond. Like
 * tmux's client, emacsclient or nailgun, this small program hands its
 * argv, working directory, environment and terminal facts to the
 * long-running agent, which runs the very same command code
 * (cli/commands/agent/command-line-door.ts) and streams back its stdout and
 * stderr, then the exit status. One behaviour, two doors: whatever the
 * agent does not serve (run, collect of a command, attach, no agent yet, an
 * agent of another protocol, a socket that is not provably ours) is handed
 * to the JavaScript CLI by exec(3) with the same argv, before anything was
 * written, so it says what it always says. `corral connect` is served by
 * connect-lines.c (a conversation, not one command line).
 *
 * Trust: before anything is sent the socket must be provably ours
 * (agent-socket.c).
 *
 * Wire (lib/agent/protocol/frames.ts): 4-byte big-endian length, one tag
 * byte, body. Tag 1: JSON. Tag 3: command output, body[0] is the fd (1, 2).
 * Tag 4: stdin, pulled: the agent sends an empty one when the command reads
 * (`pty send --stdin`), the client answers with one read(2) of its stdin of
 * at most CORRAL_INPUT_FRAME_BYTES, or an empty one at its end. Stdin is
 * never read unless the agent asks, so a command line handed over to the
 * JavaScript CLI finds it untouched.
 *
 * Man pages: unix(7) (SO_PEERCRED), connect(2), execv(3), readlink(2),
 * isatty(3), ioctl_tty(2) (TIOCGWINSZ).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "client-protocol.h"
#include "client.h"
#include "json-out.h"

extern char **environ;

int g_argc;
char **g_argv;

/* The request: a hello and the command line, sent together (the agent answers in order). */
int send_request(int fd, int lines, const char *adopt) {
    struct json_out j;
    json_init(&j);
    json_raw(&j, "{\"id\":1,\"op\":\"hello\",\"version\":");
    json_uint(&j, CORRAL_PROTOCOL_VERSION);
    json_raw(&j, "}");
    size_t hello_end = j.len;
    json_raw(&j, "{\"id\":2,\"op\":\"command-line\",\"argv\":[");
    for (int i = 1; i < g_argc; i++) {
        if (i > 1) json_raw(&j, ",");
        if (json_string(&j, g_argv[i]) != 0) return -2; /* not UTF-8: the JavaScript CLI takes it */
    }
    json_raw(&j, "],\"cwd\":");
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL || json_string(&j, cwd) != 0) return -2;
    json_raw(&j, ",\"env\":{");
    int first = 1;
    for (char **e = environ; *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        if (eq == NULL || eq == *e) continue;
        size_t mark = j.len;
        if (!first) json_raw(&j, ",");
        if (json_string_n(&j, *e, (size_t)(eq - *e)) != 0 || (json_raw(&j, ":"), json_string(&j, eq + 1)) != 0) {
            j.len = mark; /* a variable that is not UTF-8 stays behind, as no served command reads one */
            continue;
        }
        first = 0;
    }
    json_raw(&j, "}");
    struct winsize ws;
    int out_tty = isatty(1), err_tty = isatty(2);
    int term = out_tty ? 1 : err_tty ? 2 : -1;
    if (term > 0 && ioctl(term, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        json_raw(&j, ",\"columns\":");
        json_uint(&j, ws.ws_col);
    }
    /* The install this client belongs to (the directory above its dist/): an agent of another runs none of its command lines. */
    char install[PATH_MAX];
    if (install_dir(install, sizeof install, 1) == 0) {
        json_raw(&j, ",\"install\":");
        if (json_string(&j, install) != 0) return -2;
    }
    json_raw(&j, ",\"stdin\":true"); /* this client answers the agent's input frames */
    if (lines) json_raw(&j, ",\"lines\":true"); /* connect: and pushes its stdin once told to */
    if (adopt != NULL) { /* connect: unless the agent takes what this token names (adopt-stdio.c) */
        json_raw(&j, ",\"adopt\":");
        if (json_string(&j, adopt) != 0) return -2;
    }
    json_raw(&j, out_tty ? ",\"stdoutTty\":true" : ",\"stdoutTty\":false");
    json_raw(&j, err_tty ? ",\"stderrTty\":true}" : ",\"stderrTty\":false}");
    if (j.failed) return -1;
    size_t req_len = j.len - hello_end;
    if (req_len + 1 > CORRAL_MAX_FRAME_BYTES) return -2;
    unsigned char *wire = malloc(j.len + 10);
    if (wire == NULL) return -1;
    size_t at = 0;
    size_t parts[2][2] = {{0, hello_end}, {hello_end, req_len}};
    for (int k = 0; k < 2; k++) {
        uint32_t n = (uint32_t)parts[k][1] + 1;
        wire[at++] = (unsigned char)(n >> 24);
        wire[at++] = (unsigned char)(n >> 16);
        wire[at++] = (unsigned char)(n >> 8);
        wire[at++] = (unsigned char)n;
        wire[at++] = CORRAL_TAG_JSON;
        memcpy(wire + at, j.buf + parts[k][0], parts[k][1]);
        at += parts[k][1];
    }
    int rc = send_all(fd, wire, at);
    free(wire);
    json_free(&j);
    return rc;
}

/* Answers the agent's request for stdin: one read of at most CORRAL_INPUT_FRAME_BYTES; empty at the end (or on a read error). */
static int send_input(int fd, int *input_ended) {
    static unsigned char frame[5 + CORRAL_INPUT_FRAME_BYTES];
    ssize_t n = 0;
    if (!*input_ended) {
        do n = read(0, frame + 5, CORRAL_INPUT_FRAME_BYTES);
        while (n < 0 && errno == EINTR);
        if (n <= 0) {
            n = 0;
            *input_ended = 1;
        }
    }
    uint32_t len = (uint32_t)n + 1;
    frame[0] = (unsigned char)(len >> 24);
    frame[1] = (unsigned char)(len >> 16);
    frame[2] = (unsigned char)(len >> 8);
    frame[3] = (unsigned char)len;
    frame[4] = CORRAL_TAG_INPUT;
    return send_all(fd, frame, (size_t)n + 5);
}

/* Reads exactly `size` bytes; 0 at a clean end of stream before the first byte, -1 on error or a torn frame. */
static int read_exact(int fd, unsigned char *buf, size_t size) {
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) return got == 0 ? 0 : -1;
        got += (size_t)n;
    }
    return 1;
}

/* `"key":NUMBER` in a compact JSON object written by JSON.stringify; -1 when absent. */
long json_number_field(const char *json, const char *key) {
    char needle[64];
    snprintf(needle, sizeof needle, "\"%s\":", key);
    const char *at = strstr(json, needle);
    if (at == NULL) return -1;
    return strtol(at + strlen(needle), NULL, 10);
}

/* Writes the reply's error message to stderr after `before`, then `after` (nothing between them when it has none). */
static void put_message(const char *json, const char *before, const char *after) {
    const char *at = strstr(json, "\"message\":\"");
    if (at != NULL) {
        fputs(before, stderr);
        for (at += 11; *at != '\0' && *at != '"'; at++) {
            if (*at == '\\' && at[1] != '\0') at++;
            fputc(*at, stderr);
        }
        fputs(after, stderr);
    }
}

/* Prints a failure the agent reported after output began (nothing can be handed over then). */
void report_failure(const char *json) {
    fputs("corral: the agent failed while serving this command", stderr);
    put_message(json, ": ", "");
    fputc('\n', stderr);
}

int main(int argc, char **argv) {
    g_argc = argc;
    g_argv = argv;
    const char *door = getenv("CORRAL_CLIENT");
    int native_only = door != NULL && strcmp(door, "native") == 0;
    if (argc < 2 || (door != NULL && strcmp(door, "js") == 0)) hand_over();
    if (is_plain_connect()) return serve_connect(native_only);
    char path[PATH_MAX];
    int fd = socket_path(path, sizeof path) == 0 ? connect_trusted(path) : -1;
    if (fd < 0) {
        if (native_only) {
            fprintf(stderr, "corral: CORRAL_CLIENT=native: no agent of yours answers at %s\n", path);
            return 125;
        }
        hand_over();
    }
    int sent = send_request(fd, 0, NULL);
    if (sent != 0) {
        if (native_only) {
            fprintf(stderr, "corral: CORRAL_CLIENT=native: this command line cannot be sent to the agent\n");
            return 125;
        }
        close(fd);
        hand_over();
    }
    int greeted = 0, wrote = 0, input_ended = 0;
    unsigned char head[5];
    for (;;) {
        int r = read_exact(fd, head, 4);
        if (r <= 0) break;
        uint32_t n = ((uint32_t)head[0] << 24) | ((uint32_t)head[1] << 16) | ((uint32_t)head[2] << 8) | head[3];
        if (n == 0 || n > CORRAL_MAX_FRAME_BYTES + 1) break;
        unsigned char *body = malloc((size_t)n + 1);
        if (body == NULL || read_exact(fd, body, n) != 1) {
            free(body);
            break;
        }
        body[n] = '\0';
        unsigned tag = body[0];
        if (tag == CORRAL_TAG_OUTPUT && n >= 2) {
            int out = body[1] == 2 ? 2 : 1;
            wrote = 1;
            if (write_all(out, body + 2, n - 2) != 0 && errno == EPIPE) {
                free(body);
                return 141; /* as a shell reports a writer killed by SIGPIPE */
            }
        } else if (tag == CORRAL_TAG_INPUT) {
            if (send_input(fd, &input_ended) != 0) {
                free(body);
                break;
            }
        } else if (tag == CORRAL_TAG_JSON) {
            const char *json = (const char *)body + 1;
            long id = json_number_field(json, "id");
            int ok = strstr(json, "\"ok\":true") != NULL;
            if (id == 1) {
                if (!ok && !native_only) hand_over(); /* another protocol: the JavaScript CLI says what it always says */
                if (!ok) {
                    fprintf(stderr, "corral: CORRAL_CLIENT=native: the agent refused the hello (another protocol version?)\n");
                    return 125;
                }
                greeted = 1;
            } else if (id == 2) {
                if (ok) {
                    long status = json_number_field(json, "status");
                    free(body);
                    return status < 0 || status > 255 ? 125 : (int)status;
                }
                if (!wrote && !native_only) hand_over();
                if (native_only && !wrote && strstr(json, "\"code\":\"not_served\"") != NULL) {
                    fputs("corral: CORRAL_CLIENT=native: the agent does not serve this command", stderr);
                    put_message(json, " (", ")");
                    fputs("; unset CORRAL_CLIENT to let the JavaScript CLI run it\n", stderr);
                    free(body);
                    return 125;
                }
                report_failure(json);
                free(body);
                return 125;
            }
        }
        free(body);
    }
    /* The connection ended before the reply. Before the hello nothing ran: the JavaScript CLI retries (the agent was stopping). */
    if (!greeted && !wrote && !native_only) hand_over();
    fprintf(stderr, "corral: the agent closed the connection before the command finished (did it stop?); see corral agent status\n");
    return 125;
}
