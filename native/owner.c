/*
 * The owner's connection: accept, token check, inbound frame decoding with
 * the maximum payload enforced before buffering, request dispatch, and the
 * outbound queue written frame by frame (so a reconnecting owner never
 * receives half a frame left over from the previous connection).
 *
 * Man pages: unix(7), accept(2), connect(2), read(2), write(2), socket(7).
 */
#ifdef __linux__
#define _GNU_SOURCE
#else
#define _XOPEN_SOURCE 700
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "state.h"

void owner_json(struct guardian *g, int tag, const char *json) { frame_put(&g->out, tag, json, strlen(json)); }

void owner_fault(struct guardian *g, const char *what, const char *syscall, int err, int stream) {
  for (int i = 0; i < g->n_faults_sent; i++) {
    if (g->faults_sent[i] == what) return;
  }
  if (g->n_faults_sent < (int)(sizeof g->faults_sent / sizeof g->faults_sent[0])) g->faults_sent[g->n_faults_sent++] = what;
  char json[768], esc_what[256], esc_msg[256];
  json_escape(esc_what, sizeof esc_what, what);
  json_escape(esc_msg, sizeof esc_msg, strerror(err));
  snprintf(json, sizeof json, "{\"what\":\"%s\",\"syscall\":\"%s\",\"errno\":%d,\"message\":\"%s\",\"stream\":%d}", esc_what,
           syscall, err, esc_msg, stream);
  owner_json(g, EV_FAULT, json);
}

void owner_reply(struct guardian *g, uint32_t id, const char *code, const char *message) {
  char json[768], esc[512];
  if (code == NULL) {
    snprintf(json, sizeof json, "{\"id\":%u,\"ok\":true}", id);
  } else {
    json_escape(esc, sizeof esc, message);
    snprintf(json, sizeof json, "{\"id\":%u,\"ok\":false,\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}", id, code, esc);
  }
  owner_json(g, EV_REPLY, json);
}

/* One small frame straight to a connection that is not (or no longer) the owner's. */
static void refuse(int fd, const char *code, const char *message) {
  char json[512], esc[256];
  struct bytes b = {0};
  json_escape(esc, sizeof esc, message);
  snprintf(json, sizeof json, "{\"code\":\"%s\",\"message\":\"%s\"}", code, esc);
  frame_put(&b, EV_ERROR, json, strlen(json));
  ssize_t w = write(fd, b.data + b.start, bytes_len(&b));
  (void)w;
  bytes_free(&b);
  /* Unread input at close makes the kernel reset the peer, which may then lose
     the error frame: discard what arrived (non-blocking) before closing. */
  shutdown(fd, SHUT_WR);
  unsigned char junk[4096];
  while (read(fd, junk, sizeof junk) > 0) {
  }
  close(fd);
}

static void welcome(struct guardian *g, int adoption);

/* An owner's connection (accepted, or the owner's own: --owner-fd, --owner-connect) waits for its auth frame. */
static void owner_connected(struct guardian *g, int fd) {
  g->conn_fd = fd;
  g->authed = 0;
  g->closing = 0;
  g->closing_shut = 0;
  g->peer_done = 0;
  g->rlen = 0;
  g->conn_deadline = now_ms() + 5000;
}

void owner_accept(struct guardian *g) {
#ifdef __linux__
  int fd = accept4(g->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
#else
  int fd = accept(g->listen_fd, NULL, NULL);
  if (fd >= 0) {
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
#endif
  if (fd < 0) return;
  if (g->conn_fd >= 0) {
    refuse(fd, "busy", "another owner is connected to this guardian");
    return;
  }
  owner_connected(g, fd);
}

int owner_attach(struct guardian *g, int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return -1;
  owner_connected(g, fd);
  /*
   * Nobody but the owner holds the other end of an inherited socket pair (or
   * of the connection made to its listener in a directory only it can
   * reach, --owner-connect), so
   * there is no one to tell apart by a token: the owner counts as
   * authenticated and the child starts at once, without waiting for a frame
   * (a round trip off every `run`). What the guardian sends waits in the
   * socket until the owner reads it, so nothing is missed.
   */
  g->authed = 1;
  g->ever_owned = 1;
  welcome(g, 0);
  child_start(g);
  return 0;
}

int owner_dial(const char *path) {
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof addr.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(addr.sun_path, path, strlen(path) + 1);
#ifdef __linux__
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
#else
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd >= 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
#endif
  if (fd < 0) return -1;
  /* Blocking: the owner is listening already (it started us after listen(2)); EINTR cannot come (SA_RESTART). */
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

/* The connection ended (EOF, error, protocol error): the lifeline is lost if it was the owner's. */
void owner_lost(struct guardian *g) {
  if (g->conn_fd < 0) return;
  close(g->conn_fd);
  g->conn_fd = -1;
  g->rlen = 0;
  if (g->head_left > 0) {
    bytes_consume(&g->out, g->head_left);
    g->head_left = 0;
  }
  if (!g->authed) return;
  g->authed = 0;
  if (g->cannot_serve) {
    /* It cannot tell anyone what happens to the tree: the tree goes now, and so does the guardian. */
    fprintf(stderr, "corral-guardian: writing to the owner failed (%s); terminating the tree\n", strerror(g->cannot_serve));
    terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
    return;
  }
  if (orphan_lost(g)) return;
  if (g->o->linger_ms == 0 || !g->started) {
    terminate_start(g, g->o->grace_ms, 0, 0, 1, SIGTERM);
  } else {
    g->linger_deadline = now_ms() + g->o->linger_ms;
  }
}

static void protocol_error(struct guardian *g, const char *code, const char *message) {
  if (!g->authed) {
    refuse(g->conn_fd, code, message);
    g->conn_fd = -1;
    g->rlen = 0;
    return;
  }
  char json[512], esc[256];
  json_escape(esc, sizeof esc, message);
  snprintf(json, sizeof json, "{\"code\":\"%s\",\"message\":\"%s\"}", code, esc);
  owner_json(g, EV_ERROR, json);
  g->closing = 1; /* flush what is queued, half-close, close at the owner's EOF (bounded): see owner_discard */
  g->conn_deadline = now_ms() + 2000;
}

static void welcome(struct guardian *g, int adoption) {
  char json[1024];
  int n = snprintf(json, sizeof json, "{\"version\":%d,\"pid\":%d,\"mode\":\"%s\"", GUARDIAN_PROTOCOL_VERSION,
                   (int)getpid(), g->o->pty ? "pty" : "pipe");
  if (g->started) {
    n += snprintf(json + n, sizeof json - (size_t)n, ",\"child\":{\"pid\":%d,\"pgid\":%d,\"sid\":%d,\"startTime\":%llu}",
                  (int)g->c.pid, (int)g->c.pgid, (int)g->c.sid, g->c.start_time);
  }
  if (g->exited_sent) {
    n += snprintf(json + n, sizeof json - (size_t)n, ",\"exited\":true");
  }
  if (adoption) n += (int)orphan_welcome(g, json + n, sizeof json - (size_t)n);
  n += (int)job_spill_welcome(g, json + n, sizeof json - (size_t)n);
  snprintf(json + n, sizeof json - (size_t)n, "}");
  if (adoption) {
    /* A new owner: the rings, the EOFs and the exit, rebuilt from the state (orphan.c). */
    bytes_free(&g->out);
    frame_put(&g->out, EV_WELCOME, json, strlen(json));
    orphan_replay(g);
    return;
  }
  /* The welcome goes before anything queued while no owner was connected. */
  struct bytes fresh = {0};
  frame_put(&fresh, EV_WELCOME, json, strlen(json));
  bytes_append(&fresh, g->out.data + g->out.start, bytes_len(&g->out));
  bytes_free(&g->out);
  g->out = fresh;
}

static int token_matches(const struct guardian *g, const unsigned char *body, size_t n) {
  size_t want = strlen(g->o->token);
  unsigned char diff = (unsigned char)(n != want);
  for (size_t i = 0; i < want; i++) diff |= (unsigned char)(g->o->token[i] ^ (i < n ? body[i] : 0));
  return diff == 0;
}

static void dispatch(struct guardian *g, int tag, const unsigned char *b, size_t n) {
  if (!g->authed) {
    if (tag != REQ_AUTH || !token_matches(g, b, n)) {
      protocol_error(g, "bad-token", "the first frame must be auth with this guardian's token");
      return;
    }
    int adoption = g->o->adoptable && g->ever_owned && g->started;
    g->authed = 1;
    g->ever_owned = 1;
    g->linger_deadline = 0;
    welcome(g, adoption);
    if (!g->started && !g->spawn_failed) child_start(g);
    return;
  }
  if (tag == REQ_INPUT) { stdin_queue(g, b, n); return; }
  static const size_t need[] = {0, 0, 0, 8, 6, 4, 8, 4, 8};
  if (tag < REQ_RESIZE || tag > REQ_SHUTDOWN) {
    char msg[64];
    snprintf(msg, sizeof msg, "unknown request tag 0x%02x", tag);
    protocol_error(g, "unknown-tag", msg);
    return;
  }
  /* terminate and shutdown may carry a ninth byte: the first signal (a forwarded SIGINT, say) */
  int first_signal = SIGTERM;
  if ((tag == REQ_TERMINATE || tag == REQ_SHUTDOWN) && n == need[tag] + 1) {
    n--;
    if (b[8] != 0) first_signal = b[8];
    if (first_signal > 64) {
      owner_reply(g, get_u32(b), "bad-signal", "signal numbers run from 1 to 64");
      return;
    }
  }
  if (n != need[tag]) {
    char msg[96];
    snprintf(msg, sizeof msg, "request tag 0x%02x needs a %zu-byte body, got %zu", tag, need[tag], n);
    protocol_error(g, "bad-body", msg);
    return;
  }
  uint32_t id = get_u32(b);
  switch (tag) {
    case REQ_RESIZE: {
      if (g->c.master < 0) { owner_reply(g, id, "not-a-pty", "resize needs --mode pty and a live terminal"); break; }
      int rows = get_u16(b + 4), cols = get_u16(b + 6);
      rows = rows < 1 ? 1 : rows > 1000 ? 1000 : rows;
      cols = cols < 1 ? 1 : cols > 1000 ? 1000 : cols;
      g->o->rows = rows;
      g->o->cols = cols;
      if (pty_resize(g->c.master, rows, cols) != 0) owner_reply(g, id, "resize-failed", strerror(errno));
      else owner_reply(g, id, NULL, NULL);
      break;
    }
    case REQ_SIGNAL:
      streams_catch_up(g);
      signal_target(g, id, b[4], b[5]);
      break;
    case REQ_CLOSE_STDIN: stdin_close(g, id); break;
    case REQ_TERMINATE: terminate_start(g, (long)get_u32(b + 4), 1, id, 0, first_signal); break;
    case REQ_SHUTDOWN: terminate_start(g, (long)get_u32(b + 4), 1, id, 1, first_signal); break;
    case REQ_RELEASE:
      owner_reply(g, id, NULL, NULL);
      g->quit = 1;
      break;
    default: break;
  }
}

void owner_readable(struct guardian *g) {
  size_t cap = g->o->max_payload + 4;
  ssize_t got = read(g->conn_fd, g->rbuf + g->rlen, cap - g->rlen);
  if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (got <= 0) {
    if (got == 0 && g->rlen > 0 && g->authed) {
      char msg[96];
      snprintf(msg, sizeof msg, "stream ended inside a frame (%zu bytes left over)", g->rlen);
      protocol_error(g, "truncated", msg);
      g->peer_done = 1; /* the error frame still goes out, then the close (owner_closing_flushed) */
      return;
    }
    owner_lost(g);
    return;
  }
  g->rlen += (size_t)got;
  size_t at = 0;
  while (g->conn_fd >= 0 && !g->closing && g->rlen - at >= 4) {
    uint32_t len = get_u32(g->rbuf + at);
    if (len == 0 || len > g->o->max_payload) {
      char msg[96];
      snprintf(msg, sizeof msg, len == 0 ? "frame has no tag byte (length 0)" : "frame of %u bytes exceeds the maximum of %zu",
               len, g->o->max_payload);
      protocol_error(g, len == 0 ? "empty" : "oversized", msg);
      return;
    }
    if (g->rlen - at < 4 + (size_t)len) break;
    dispatch(g, g->rbuf[at + 4], g->rbuf + at + 5, len - 1);
    at += 4 + (size_t)len;
  }
  if (g->conn_fd < 0 || g->closing) return;
  memmove(g->rbuf, g->rbuf + at, g->rlen - at);
  g->rlen -= at;
}

/*
 * Closing after a protocol error. Closing a socket with unread input makes
 * the kernel reset the peer (ECONNRESET), and a peer that is still writing
 * gets EPIPE: either way a client may drop what it had not read yet, the
 * error frame and the welcome before it (Node destroys the socket; seen as
 * "no frame at all" in the protocol fuzz, issue 3, when the owner's frames
 * came in two reads). So the guardian does what a web server's lingering
 * close does: what is queued is written, its side is shut down (the owner
 * reads every frame, then EOF), and what the owner still sends is read and
 * dropped until its EOF, or conn_deadline (timers in loop.c).
 */
void owner_discard(struct guardian *g) {
  unsigned char junk[4096];
  for (int round = 0; round < 64; round++) { /* a flood cannot hold the loop */
    ssize_t got = read(g->conn_fd, junk, sizeof junk);
    if (got > 0) continue;
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == EAGAIN) return;
    g->peer_done = 1;
    if (got < 0 || bytes_len(&g->out) == 0) owner_lost(g); /* else the flush ends it */
    return;
  }
}

/* Everything queued is written while closing: half-close, or close when the owner is done too. */
void owner_closing_flushed(struct guardian *g) {
  if (g->peer_done) {
    owner_lost(g);
    return;
  }
  if (!g->closing_shut) {
    shutdown(g->conn_fd, SHUT_WR);
    g->closing_shut = 1;
  }
}

void owner_flush(struct guardian *g) {
  while (bytes_len(&g->out) > 0) {
    size_t n = bytes_len(&g->out);
    if (n > 256 * 1024) n = 256 * 1024;
    const unsigned char *p = g->out.data + g->out.start;
    ssize_t w = write(g->conn_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w <= 0) {
      /*
       * EPIPE/ECONNRESET: the owner went away. Anything else (EIO, ENOMEM...)
       * is this guardian failing: no owner can rely on it any more, so it
       * does not wait to be re-adopted but ends the tree (owner_lost).
       */
      if (w < 0 && errno != EPIPE && errno != ECONNRESET && errno != ENOTCONN) g->cannot_serve = errno;
      owner_lost(g);
      return;
    }
    size_t pos = 0;
    while (pos < (size_t)w) {
      if (g->head_left == 0) g->head_left = 4 + (size_t)get_u32(p + pos);
      size_t take = g->head_left < (size_t)w - pos ? g->head_left : (size_t)w - pos;
      g->head_left -= take;
      pos += take;
    }
    bytes_consume(&g->out, (size_t)w);
  }
}
