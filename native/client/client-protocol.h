/*
 * The agent protocol as the native client speaks it: the C twin of
 * lib/agent/protocol/version.ts and frames.ts. Bump with them:
 * test/lib/agent/native-client-protocol.test.ts fails when they differ.
 */
#ifndef CORRAL_CLIENT_PROTOCOL_H
#define CORRAL_CLIENT_PROTOCOL_H

#define CORRAL_PROTOCOL_VERSION 6
#define CORRAL_MAX_FRAME_BYTES (8u * 1024u * 1024u)
#define CORRAL_TAG_JSON 1
#define CORRAL_TAG_OUTPUT 3
#define CORRAL_TAG_INPUT 4
#define CORRAL_INPUT_FRAME_BYTES (64u * 1024u)
/* The body of the input frame that says the agent took stdin and stdout ("A": lib/agent/protocol/frames.ts). */
#define CORRAL_ADOPTED 0x41

/* An adopted connect's ledger: lib/agent/protocol/connect-ledger.ts. */
#define CORRAL_LEDGER_BYTES (4u * 1024u * 1024u)
#define CORRAL_LEDGER_HEADER_BYTES 64
#define CORRAL_LEDGER_MAGIC 0x314c5243u
#define CORRAL_LEDGER_WORD_MAGIC 0
#define CORRAL_LEDGER_WORD_STATE 1
#define CORRAL_LEDGER_WORD_START 2
#define CORRAL_LEDGER_WORD_END 3
#define CORRAL_LEDGER_SETTLED 0
#define CORRAL_LEDGER_WRITING 1
#define CORRAL_LEDGER_PARTIAL 2
#define CORRAL_LEDGER_UNKNOWN 3

#endif
