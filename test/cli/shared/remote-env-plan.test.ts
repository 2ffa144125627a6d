// The caller's question to the far side of a --host/--via call about the
// environment it will build (cli/shared/remote-env-plan.ts), against a far
// end that answers it and one that does not know it (an earlier build,
// whose agent answers unknown_op): the first gives the names; the second
// is let pass when only the defaults were asked, and refused when
// --clear-env, --keep-env or --no-scrub would be ignored there. The far
// end here is a scripted link (the real relay is in remote-ssh-env.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentClient } from "../../../lib/agent/client/client.ts";
import { FrameDecoder, frameJson, jsonFrame, MAX_FRAME_BYTES } from "../../../lib/agent/protocol/frames.ts";
import { ENV_PLAN_OP } from "../../../lib/agent/client/remote/far-environment.ts";
import { remoteEnvPlan } from "../../../cli/shared/remote-env-plan.ts";
import { AgentError } from "../../../lib/agent/protocol/messages.ts";

type Json = Record<string, unknown>;

/** A client whose far end answers each request with `answer(request)`; the requests it saw are kept. */
async function scripted(answer: (request: Json) => Json): Promise<{ client: AgentClient; seen: Json[] }> {
  const seen: Json[] = [];
  const decoder = new FrameDecoder(MAX_FRAME_BYTES);
  const client = await AgentClient.over((events) => {
    let closed = false;
    return {
      write: (bytes) => {
        for (const frame of decoder.push(bytes)) {
          const request = frameJson(frame.body) as Json;
          seen.push(request);
          queueMicrotask(() => events.data(jsonFrame({ id: request.id, ...answer(request) })));
        }
      },
      pause: () => {},
      resume: () => {},
      close: () => {
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
  });
  return { client, seen };
}

const unknownOp = (request: Json): Json => ({ ok: false, error: { code: "unknown_op", message: `unknown op "${String(request.op)}"` } });

test("the far side's answer: its names and count; the --env values are not sent again, only their names", async () => {
  const { client, seen } = await scripted(() => ({ ok: true, withheld: ["DEPLOY_TOKEN"], cleared: 0 }));
  const plan = await remoteEnvPlan(client, { op: "job-start", env: { MODE: "secret-value" }, envFlags: { keep: ["AWS_*"] } }, "box");
  assert.deepEqual(plan, { withheld: ["DEPLOY_TOKEN"], cleared: 0 });
  assert.equal(seen[0]?.op, ENV_PLAN_OP);
  assert.deepEqual(seen[0]?.request, { op: "job-start", env: { MODE: "" }, envFlags: { keep: ["AWS_*"] } });
  assert.doesNotMatch(JSON.stringify(seen), /secret-value/);
  client.close();
});

test("an earlier far side and only the defaults asked: no plan, no failure", async () => {
  const { client } = await scripted(unknownOp);
  assert.equal(await remoteEnvPlan(client, { op: "job-start", env: {}, envFlags: { clear: false, keep: [] } }, "box"), null);
  assert.equal(await remoteEnvPlan(client, { op: "open", env: {} }, "box"), null);
  client.close();
});

test("an earlier far side that would ignore --clear-env, --keep-env or --no-scrub: refused, naming the host", async () => {
  const { client } = await scripted(unknownOp);
  for (const envFlags of [{ clear: true }, { keep: ["PATH"] }, { scrub: false }]) {
    await assert.rejects(
      remoteEnvPlan(client, { op: "job-start", env: {}, envFlags }, "ci@box"),
      (error: unknown) => error instanceof AgentError && error.code === "internal" && /the corral on ci@box is an older release/.test(error.message),
    );
  }
  client.close();
});
