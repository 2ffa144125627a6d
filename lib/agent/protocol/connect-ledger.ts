// The ledger of an adopted `connect` (the command-line request's `adopt`):
// a memfd the native client makes and drops at the agent with its stdin and
// stdout. The agent keeps in it the bytes of stdin it has read and not yet
// answered; if the agent dies mid-conversation the client reads it and
// answers those lines itself (`agent_gone`, with their refs), as it does for
// the lines it relays. Shared memory, read only after the agent is gone:
// no locks, only an order of stores (lib/agent/server/adopted-ledger.ts). The C twin
// is native/client/client-protocol.h (test/cli/native-client/doors.test.ts
// compares them).

/** The memfd's size: header, then the bytes held. Pages are only used as the bytes reach them. */
export const LEDGER_BYTES = 4 * 1024 * 1024;
/** Where the held bytes start. */
export const LEDGER_HEADER_BYTES = 64;
/** Word 0, once the agent took the ledger ("CRL1" read as a little-endian word). */
export const LEDGER_MAGIC = 0x314c5243;

/** The header's 32-bit words (native byte order: both sides run on this machine). */
export const LedgerWord = {
  magic: 0,
  /** A LedgerState. */
  state: 1,
  /** The first held byte not answered, from LEDGER_HEADER_BYTES. */
  start: 2,
  /** The end of the held bytes. */
  end: 3,
} as const;

export const LedgerState = {
  /** Every reply written was written whole. */
  settled: 0,
  /** A reply is being handed to the kernel: whether it went out is not known (answered again if the agent dies here). */
  writing: 1,
  /** A reply went out in part: the client ends that line before answering it. */
  partial: 2,
  /** The ledger cannot say (bytes being moved, or more than it holds): the client answers once, without a ref. */
  unknown: 3,
} as const;
