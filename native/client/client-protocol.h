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

#endif
