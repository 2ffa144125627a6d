// The ledger an agent keeps for a `connect` whose stdin and stdout it took
// (lib/agent/server/adopted-ledger.ts): what the native client reads after
// the agent died must name exactly the bytes of stdin not answered, in
// every state the agent can die in. Read here as the client reads it
// (native/client/adopt-stdio.c): the header's words, then the held bytes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LEDGER_HEADER_BYTES, LEDGER_MAGIC, LedgerState, LedgerWord } from "../../../lib/agent/protocol/connect-ledger.ts";
import { ConnectLedger } from "../../../lib/agent/server/adopted-ledger.ts";

const text = new TextEncoder();
const fromBytes = new TextDecoder();

/** What the client would answer from: the state and the held text. */
function asTheClientReads(memory: ArrayBuffer): { magic: number; state: number; held: string } {
  const words = new Uint32Array(memory, 0, LEDGER_HEADER_BYTES / 4);
  const start = words[LedgerWord.start]!;
  const end = words[LedgerWord.end]!;
  const held = end > start ? fromBytes.decode(new Uint8Array(memory, LEDGER_HEADER_BYTES + start, end - start)) : "";
  return { magic: words[LedgerWord.magic]!, state: words[LedgerWord.state]!, held };
}

test("bytes read are held until their lines are answered; all answered, it holds nothing", () => {
  const memory = new ArrayBuffer(LEDGER_HEADER_BYTES + 256);
  const ledger = new ConnectLedger(memory);
  assert.equal(asTheClientReads(memory).magic, LEDGER_MAGIC);
  ledger.add(text.encode('{"op":"list","ref":1}\n{"op":"wait"'));
  ledger.add(text.encode(',"ref":2}\n{"op":"li'));
  assert.equal(asTheClientReads(memory).held, '{"op":"list","ref":1}\n{"op":"wait","ref":2}\n{"op":"li');
  ledger.answeredTo(22); // the first line, with its line end
  assert.deepEqual(asTheClientReads(memory), { magic: LEDGER_MAGIC, state: LedgerState.settled, held: '{"op":"wait","ref":2}\n{"op":"li' });
  ledger.add(text.encode('st"}\n'));
  ledger.answeredTo(22 + 22);
  ledger.answeredTo(22 + 22 + 14);
  assert.equal(asTheClientReads(memory).held, "");
  assert.equal(ledger.held, 0);
  // Offsets go on counting from the start of stdin after the ledger emptied.
  ledger.add(text.encode('{"op":"jobs"}\n'));
  ledger.answeredTo(58 + 5);
  assert.equal(asTheClientReads(memory).held, ':"jobs"}\n');
});

test("a reply being written, or written in part, is what the state says", () => {
  const memory = new ArrayBuffer(LEDGER_HEADER_BYTES + 64);
  const ledger = new ConnectLedger(memory);
  ledger.add(text.encode("{}\n"));
  ledger.replyState(LedgerState.writing);
  assert.equal(asTheClientReads(memory).state, LedgerState.writing);
  ledger.replyState(LedgerState.partial);
  assert.equal(asTheClientReads(memory).state, LedgerState.partial);
  ledger.answeredTo(3);
  ledger.replyState(LedgerState.settled);
  assert.deepEqual(asTheClientReads(memory), { magic: LEDGER_MAGIC, state: LedgerState.settled, held: "" });
});

test("near the end of its room the held bytes move to the front, and the state comes back", () => {
  const memory = new ArrayBuffer(LEDGER_HEADER_BYTES + 32);
  const ledger = new ConnectLedger(memory);
  ledger.add(text.encode("0123456789abcdef0123456789"));
  ledger.answeredTo(20);
  ledger.replyState(LedgerState.partial);
  ledger.add(text.encode("ghijklmnop")); // 26 + 10 > 32: the 6 held bytes move first
  assert.deepEqual(asTheClientReads(memory), { magic: LEDGER_MAGIC, state: LedgerState.partial, held: "456789ghijklmnop" });
  ledger.answeredTo(30);
  assert.equal(asTheClientReads(memory).held, "klmnop");
});

test("more than it can hold: it says unknown from then on, whatever comes after", () => {
  const memory = new ArrayBuffer(LEDGER_HEADER_BYTES + 16);
  const ledger = new ConnectLedger(memory);
  ledger.add(text.encode("0123456789"));
  ledger.add(text.encode("0123456789"));
  assert.equal(asTheClientReads(memory).state, LedgerState.unknown);
  ledger.answeredTo(20);
  ledger.replyState(LedgerState.settled);
  ledger.add(text.encode("x\n"));
  assert.equal(asTheClientReads(memory).state, LedgerState.unknown);
});
