/*
 * JSON text for the native client's request (json-out.h says why it is so
 * small). UTF-8 is checked as RFC 3629 defines it: no overlongs, no
 * surrogates, nothing above U+10FFFF, so the agent's decoder never has to
 * replace a byte and the command sees the arguments it was given.
 */
#include "json-out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json_out *j) {
    j->buf = NULL;
    j->len = j->cap = 0;
    j->failed = 0;
}

void json_free(struct json_out *j) {
    free(j->buf);
    json_init(j);
}

static void put(struct json_out *j, const char *data, size_t n) {
    if (j->failed) return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap == 0 ? 4096 : j->cap;
        while (cap < j->len + n + 1) cap *= 2;
        char *grown = realloc(j->buf, cap);
        if (grown == NULL) {
            j->failed = 1;
            return;
        }
        j->buf = grown;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, data, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

void json_raw(struct json_out *j, const char *text) { put(j, text, strlen(text)); }

void json_uint(struct json_out *j, unsigned long n) {
    char digits[32];
    int k = snprintf(digits, sizeof digits, "%lu", n);
    put(j, digits, (size_t)k);
}

/* Length of the UTF-8 sequence at s (at most `left` bytes), or 0 when it is not valid. */
static size_t utf8_length(const unsigned char *s, size_t left) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned long cp;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (n > left) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
    return n;
}

int json_string_n(struct json_out *j, const char *s, size_t n) {
    size_t mark = j->len;
    put(j, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            put(j, esc, 2);
            i++;
        } else if (c < 0x20) {
            char esc[8];
            static const char short_escapes[] = {['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r'};
            if (c < sizeof short_escapes && short_escapes[c] != 0) snprintf(esc, sizeof esc, "\\%c", short_escapes[c]);
            else snprintf(esc, sizeof esc, "\\u%04x", c);
            put(j, esc, strlen(esc));
            i++;
        } else {
            size_t k = utf8_length(p + i, n - i);
            if (k == 0) {
                j->len = mark;
                if (j->buf != NULL) j->buf[mark] = '\0';
                return -1;
            }
            put(j, (const char *)p + i, k);
            i += k;
        }
    }
    put(j, "\"", 1);
    return 0;
}

int json_string(struct json_out *j, const char *s) { return json_string_n(j, s, strlen(s)); }
