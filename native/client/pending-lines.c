/*
 * The lines of a `corral connect` the agent has not answered yet, and the
 * `agent_gone` replies they get once it has gone (connect-lines.c): the
 * lines the client relayed, and the ones an agent that held stdin left in
 * its ledger (adopt-stdio.c). A line's `ref` is copied as written, and
 * blank lines are skipped, as the JavaScript relay does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pending-lines.h"

void buf_put(struct buf *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap == 0 ? 65536 : b->cap;
        while (cap < b->len + n) cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            fputs("corral: connect: out of memory\n", stderr);
            exit(125);
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
}

void buf_drop(struct buf *b, size_t n) {
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

/* Length of the line at the start of `s` (without its end) and of its end (0: no end in sight, the line may go on). */
static size_t line_at(const unsigned char *s, size_t n, size_t *end) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') {
            *end = 1;
            return i;
        }
        if (s[i] == '\r') {
            *end = i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
            return i;
        }
    }
    *end = 0;
    return n;
}

/* A line the agent skips (the JavaScript relay's trim() === ""; ASCII blanks only here). */
static int blank(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\v' && s[i] != '\f') return 0;
    return 1;
}

static size_t skip_ws(const unsigned char *s, size_t n, size_t i) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) i++;
    return i;
}

/* The end of the JSON value at s[i] (a scan, not a check: malformed text ends somewhere). */
static size_t value_end(const unsigned char *s, size_t n, size_t i) {
    int depth = 0;
    for (; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\') i++;
            if (depth == 0) return i + 1;
        } else if (c == '{' || c == '[') depth++;
        else if (c == '}' || c == ']') {
            if (depth == 0) return i;
            if (--depth == 0) return i + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t')) return i;
    }
    return n;
}

/* Where the top-level "ref" of a JSON object line is, as written; 0 when it has none. */
static size_t find_ref(const unsigned char *s, size_t n, size_t *at) {
    size_t i = skip_ws(s, n, 0);
    if (i >= n || s[i] != '{') return 0;
    for (i++;;) {
        i = skip_ws(s, n, i);
        if (i >= n || s[i] != '"') return 0;
        size_t key = i + 1, key_end = value_end(s, n, i) - 1;
        i = skip_ws(s, n, key_end + 1);
        if (i >= n || s[i] != ':') return 0;
        i = skip_ws(s, n, i + 1);
        size_t end = value_end(s, n, i);
        if (end <= i) return 0;
        if (key_end - key == 3 && memcmp(s + key, "ref", 3) == 0) {
            *at = i;
            return end - i;
        }
        i = skip_ws(s, n, end);
        if (i >= n || s[i] != ',') return 0;
        i++;
    }
}

/* The reply a line gets once the agent has gone, as the JavaScript relay writes it. */
static int gone_reply(const unsigned char *line, size_t n) {
    static const char tail[] = "\"ok\":false,\"error\":{\"code\":\"agent_gone\",\"message\":\"the agent connection was lost: the agent closed the connection\"}}\n";
    struct buf out = {0};
    size_t at = 0, len = find_ref(line, n, &at);
    buf_put(&out, "{", 1);
    if (len > 0) {
        buf_put(&out, "\"ref\":", 6);
        buf_put(&out, line + at, len);
        buf_put(&out, ",", 1);
    }
    buf_put(&out, tail, sizeof tail - 1);
    int rc = write_all(1, out.data, out.len);
    free(out.data);
    return rc;
}


void pending_add(struct pending *p, const unsigned char *data, size_t n) {
    if (p->after_return && n > 0 && p->text.len == 0 && data[0] == '\n') {
        data++;
        n--;
    }
    p->after_return = 0;
    buf_put(&p->text, data, n);
}

/* Takes the next line the agent answers (blank ones are skipped); 0 when none is whole yet. */
int pending_next(struct pending *p, int all, size_t *len) {
    for (;;) {
        size_t end, n = line_at(p->text.data, p->text.len, &end);
        if (end == 0 && !(all && n > 0)) return 0;
        if (!blank(p->text.data, n)) {
            *len = n;
            return 1;
        }
        p->after_return = end == 1 && n + 1 == p->text.len && p->text.data[n] == '\r';
        buf_drop(&p->text, n + end);
    }
}

void pending_drop_line(struct pending *p) {
    size_t end, n = line_at(p->text.data, p->text.len, &end);
    p->after_return = end == 1 && n + 1 == p->text.len && p->text.data[n] == '\r';
    buf_drop(&p->text, n + end);
}

/* Every whole line not answered (and, at the end, the last one) gets agent_gone; 1 when any did. */
int answer_gone(struct pending *p, int all) {
    int any = 0;
    size_t n;
    while (pending_next(p, all, &n)) {
        if (gone_reply(p->text.data, n) != 0) exit(141);
        any = 1;
        pending_drop_line(p);
    }
    return any;
}
