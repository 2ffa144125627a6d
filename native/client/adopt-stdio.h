/* connect's stdin and stdout handed to the agent: adopt-stdio.c. */
#ifndef CORRAL_ADOPT_STDIO_H
#define CORRAL_ADOPT_STDIO_H

#include <stddef.h>
#include <stdint.h>

struct adoption {
    int dropped;      /* stdin, stdout and the ledger wait at the agent's drop */
    char token[33];   /* named in the request's "adopt" */
    void *ledger;     /* the ledger, mapped (MAP_FAILED when none) */
    int in_flags, out_flags; /* stdin's and stdout's file status flags before */
};

/* Drops stdin, stdout and a new ledger at the drop beside `agent_socket`; 0, or -1 (relay: nothing dropped). */
int adopt_prepare(const char *agent_socket, struct adoption *a);
/* Gives stdin and stdout back their file status flags. */
void adopt_restore(const struct adoption *a);
/* The ledger's state (CORRAL_LEDGER_*) and the bytes of stdin read by the agent and not answered. */
int adopt_ledger(const struct adoption *a, const unsigned char **held, size_t *len);

#endif
