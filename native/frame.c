/*
 * Framing (4-byte big-endian length of tag + body, then tag, then body),
 * the byte queues frames are built in, and the little JSON the events carry.
 * Mirrors lib/native/frame.ts. Man pages: clock_gettime(2).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "guardian.h"

static void bytes_reserve(struct bytes *b, size_t more) {
  if (b->end + more <= b->cap) return;
  size_t live = b->end - b->start;
  if (b->start > 0 && live + more <= b->cap) {
    memmove(b->data, b->data + b->start, live);
  } else {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < live + more) cap *= 2;
    unsigned char *p = malloc(cap);
    if (p == NULL) abort(); /* out of memory: nothing sensible is left to do */
    if (live) memcpy(p, b->data + b->start, live);
    free(b->data);
    b->data = p;
    b->cap = cap;
  }
  b->start = 0;
  b->end = live;
}

/*
 * Room for `body` bytes sent as frame_put2 frames of at most OUTPUT_CHUNK,
 * made before a stream's tail is queued: growing the queue frame by frame
 * doubles it, copying what it holds each time, so a tail of 64 MiB
 * (collect --max-bytes 64MiB) peaked at twice and three times that.
 * Pages of the room not yet written cost no memory.
 */
void frames_reserve(struct bytes *q, uint64_t body) {
  bytes_reserve(q, (size_t)body + 6 * (size_t)(body / OUTPUT_CHUNK + 1));
}

void bytes_append(struct bytes *b, const void *p, size_t n) {
  if (n == 0) return;
  bytes_reserve(b, n);
  memcpy(b->data + b->end, p, n);
  b->end += n;
}

size_t bytes_len(const struct bytes *b) { return b->end - b->start; }

void bytes_consume(struct bytes *b, size_t n) {
  b->start += n;
  if (b->start >= b->end) b->start = b->end = 0;
}

void bytes_free(struct bytes *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

void frame_put2(struct bytes *q, int tag, unsigned char first, const void *body, size_t n) {
  uint32_t len = (uint32_t)(n + 2);
  unsigned char head[6] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
                           (unsigned char)len, (unsigned char)tag, first};
  bytes_append(q, head, 6);
  bytes_append(q, body, n);
}

void frame_put(struct bytes *q, int tag, const void *body, size_t n) {
  uint32_t len = (uint32_t)(n + 1);
  unsigned char head[5] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
                           (unsigned char)len, (unsigned char)tag};
  bytes_append(q, head, 5);
  bytes_append(q, body, n);
}

/* Escapes a string for a JSON string literal, truncating to fit. */
void json_escape(char *out, size_t cap, const char *s) {
  size_t o = 0;
  for (; *s && o + 7 < cap; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') { out[o++] = '\\'; out[o++] = (char)c; }
    else if (c < 0x20) o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
    else out[o++] = (char)c;
  }
  out[o] = '\0';
}

uint32_t get_u32(const unsigned char *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

uint16_t get_u16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }

void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
