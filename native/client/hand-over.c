/*
 * Handing a command line to the JavaScript CLI: exec(3) of the runtime with
 * dist/corral.cjs and the same argv, before anything of the command was
 * read or written (corral-client.c says when), with the environment the
 * caller gave, but for the one variable Node would spend its start on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

extern char **environ;

/*
 * Node 20 reads and parses $NODE_EXTRA_CA_CERTS at every start (60-80 ms of CPU
 * on a 2-core machine with Debian's bundle, twice `node -e 0` without it; a
 * missing file prints a warning at exit), for TLS corral never does. So the
 * runtime starts without it, and the JavaScript CLI puts it back into its
 * environment first thing (lib/runtime/held-node-certs.ts), before any
 * program it starts could see the difference. Deno and Bun do not read it
 * at start.
 */
#define CORRAL_HELD_CERTS_ENV "CORRAL_HELD_NODE_EXTRA_CA_CERTS"

static void hold_node_certs(const char *runtime) {
    static const char certs[] = "NODE_EXTRA_CA_CERTS=";
    const char *base = strrchr(runtime, '/');
    base = base == NULL ? runtime : base + 1;
    if (strcmp(base, "node") != 0 || getenv(CORRAL_HELD_CERTS_ENV) != NULL) return;
    /* Renamed in its place, so a program that prints its environment sees the caller's order. */
    for (char **entry = environ; *entry != NULL; entry++) {
        if (strncmp(*entry, certs, sizeof certs - 1) != 0) continue;
        const char *value = *entry + sizeof certs - 1;
        size_t size = sizeof CORRAL_HELD_CERTS_ENV + 1 + strlen(value);
        char *held = malloc(size);
        if (held == NULL) return;
        snprintf(held, size, "%s=%s", CORRAL_HELD_CERTS_ENV, value);
        *entry = held;
        return;
    }
}

/* This binary's directory (dist/) and `up` more levels, with no trailing slash; 0 or -1. */
int install_dir(char *out, size_t size, int up) {
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) return -1;
    out[n] = '\0';
    for (int level = 0; level <= up; level++) {
        char *slash = strrchr(out, '/');
        if (slash == NULL) return -1;
        *slash = '\0';
    }
    return out[0] == '/' ? 0 : -1;
}

/*
 * The runtime npm's install ran under, recorded at install by
 * cli/native-client-install.ts in native/build/js-runtime: where `node` is
 * not on PATH (a cron job's bare PATH, a node from nvm), the client still
 * hands over, to the node that installed it. NULL when there is none.
 */
static char *installed_runtime(void) {
    static char runtime[PATH_MAX];
    char root[PATH_MAX];
    if (install_dir(root, sizeof root, 1) != 0) return NULL;
    char file[PATH_MAX + 32];
    snprintf(file, sizeof file, "%s/native/build/js-runtime", root);
    FILE *f = fopen(file, "r");
    if (f == NULL) return NULL;
    char *line = fgets(runtime, sizeof runtime, f);
    fclose(f);
    if (line == NULL || runtime[0] != '/') return NULL;
    runtime[strcspn(runtime, "\n")] = '\0';
    return access(runtime, X_OK) == 0 ? runtime : NULL;
}

/* The JavaScript CLI, with the same argv: dist/corral.cjs beside this binary. */
void hand_over(void) {
    char self[PATH_MAX];
    if (install_dir(self, sizeof self, 0) != 0) {
        fprintf(stderr, "corral: cannot find the JavaScript CLI (/proc/self/exe: %s)\n", strerror(errno));
        exit(125);
    }
    char script[PATH_MAX + 16];
    snprintf(script, sizeof script, "%s/corral.cjs", self);
    const char *chosen = getenv("CORRAL_JS_RUNTIME");
    const char *runtime = chosen != NULL && chosen[0] != '\0' ? chosen : "node";
    hold_node_certs(runtime);
    char **args = calloc((size_t)g_argc + 2, sizeof *args);
    if (args == NULL) exit(125);
    args[0] = (char *)runtime;
    args[1] = script;
    for (int i = 1; i < g_argc; i++) args[i + 1] = g_argv[i];
    execvp(runtime, args);
    int why = errno;
    const char *installed = runtime == chosen ? NULL : installed_runtime();
    if (why == ENOENT && installed != NULL) {
        args[0] = (char *)installed;
        execv(installed, args);
        fprintf(stderr, "corral: cannot start the JavaScript CLI (%s %s, the node corral was installed with; no node on PATH): %s\n", installed, script, strerror(errno));
        exit(125);
    }
    fprintf(stderr, "corral: cannot start the JavaScript CLI (%s %s): %s%s\n", runtime, script, strerror(why),
            why == ENOENT && runtime != chosen ? "; put node on PATH, or set CORRAL_JS_RUNTIME to its path" : "");
    exit(125);
}
