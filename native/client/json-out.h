/*
 * A growing buffer of JSON text, just what the native client's one request
 * needs: raw text, unsigned numbers and strings escaped as JSON.stringify
 * does. A string that is not valid UTF-8 is refused (the caller hands the
 * command line to the JavaScript CLI, which keeps its bytes as they are).
 */
#ifndef CORRAL_JSON_OUT_H
#define CORRAL_JSON_OUT_H

#include <stddef.h>

struct json_out {
    char *buf;
    size_t len, cap;
    int failed; /* out of memory: the request is not sent */
};

void json_init(struct json_out *j);
void json_free(struct json_out *j);
void json_raw(struct json_out *j, const char *text);
void json_uint(struct json_out *j, unsigned long n);
/* 0, or -1 when `s` is not valid UTF-8 (nothing of it is kept then). */
int json_string(struct json_out *j, const char *s);
int json_string_n(struct json_out *j, const char *s, size_t n);

#endif
