/* The lines not answered yet, and their agent_gone replies: pending-lines.c. */
#ifndef CORRAL_PENDING_LINES_H
#define CORRAL_PENDING_LINES_H

#include <stddef.h>

/* A growing byte buffer (exits 125 when memory runs out). */
struct buf {
    unsigned char *data;
    size_t len, cap;
};

void buf_put(struct buf *b, const void *data, size_t n);
void buf_drop(struct buf *b, size_t n);

/*
 * The lines sent and not answered yet (stdin as it came). `answered` drops
 * the first line the agent answers; `all` at the end of stdin counts a last
 * line without its line end.
 */
struct pending {
    struct buf text;
    int after_return; /* the last line dropped ended in a \r at the end of the text: a \n may follow */
};

void pending_add(struct pending *p, const unsigned char *data, size_t n);
/* Takes the next line the agent answers (blank ones are skipped); 0 when none is whole yet. */
int pending_next(struct pending *p, int all, size_t *len);
void pending_drop_line(struct pending *p);
/* Every whole line not answered (and, with `all`, the last one) gets agent_gone; 1 when any did. */
int answer_gone(struct pending *p, int all);

#endif
