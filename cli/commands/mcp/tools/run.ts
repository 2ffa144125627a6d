// The `run` tool: one command with `collect`'s guarantees, answered in a
// form a model can read. The whole tree ends at the timeout; the answer
// gives exit facts, head plus tail within the budget with the cut stated,
// the spill file holding every byte, and the processes it left running
// (named, then ended). stdin is /dev/null unless given, and there is no
// terminal: a prompt fails instead of hanging. A call waits at most the
// server's cap, then answers done:false with a cursor; a cancelled call
// ends the run's tree.
import { withheldNote } from "./withheld-note.ts";
import process from "node:process";
import { exitStatusOf } from "../../../../lib/runtime/signals.ts";
import { prepareLaunch } from "../launch.ts";
import { pause, waitSlice } from "../cursors.ts";
import { streamForModel } from "../model-text.ts";
import { type Run, treeIsStopped } from "../runs.ts";
import { type Tool, type ToolAnswer, type ToolCall, ToolError } from "../tool.ts";
import { bool, COMMAND_INPUT, ELISION, EXIT_FACTS, integer, nullable, object, SCRUBBED, str, strings, WAIT_INPUT, WAIT_OUTPUT } from "./schema-parts.ts";
import { DEFAULT_GRACE_MS } from "../../../../lib/core/defaults.ts";

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** How often a waiting call looks for a stopped tree (a read of a terminal it does not own). */
const STOPPED_CHECK_MS = 250;

export const runTool: Tool = {
  name: "run",
  title: "Run a command to its end",
  description: [
    "Runs a command (no terminal, stdin /dev/null unless `stdin` is given) and answers with its exit facts and",
    "output: ANSI removed, progress-bar redraws collapsed, head plus tail within the budget with the cut stated",
    "(bytes and lines) and every byte in the `spill` file. The timeout ends the whole process tree. Processes",
    "the command leaves running are named in `survivors` and ended. A call waits at most the server's wait cap:",
    "then it answers done:false with a `cursor`; call run again with just the cursor to keep waiting. Cancelling",
    "the call ends the command's tree. For something meant to keep running, use job_start.",
  ].join(" "),
  readOnly: false,
  starts: true,
  inputSchema: object({
    ...COMMAND_INPUT,
    stdin: str("Text written to the command's stdin, then closed (default: stdin is /dev/null)"),
    timeoutMs: integer(`End the whole tree after this long (default ${DEFAULT_TIMEOUT_MS} ms)`, 1),
    graceMs: integer(`Between SIGTERM and SIGKILL when the tree is ended (default: the config's, ${DEFAULT_GRACE_MS})`),
    budget: integer("Characters of output in the answer (default: the server's --budget)", 200),
    spill: bool("Keep every byte in a file (default true)"),
    ...WAIT_INPUT,
  }),
  outputSchema: object({
    ...WAIT_OUTPUT,
    command: str("the command as run"),
    pid: integer("the program's pid"),
    exit: nullable(EXIT_FACTS),
    status: nullable({ type: "integer", description: "exit status: the code, 128+N for signal N, 124 when the timeout fired" }),
    output: str("stdout and stderr merged, shaped for a model"),
    bytes: integer("bytes of output in all"),
    lines: integer("lines of output in all"),
    elided: ELISION,
    clippedLines: integer("lines clipped in the middle for length"),
    spill: nullable(str("file holding every byte of output (complete once done)")),
    survivors: {
      type: "array",
      items: object({ pid: integer("pid"), argv: strings("its command line") }, ["pid", "argv"]),
      description: "processes the command left running when it exited; corral ended them",
    },
    uncertain: { type: "array", items: { type: "integer" }, description: "pids that could not be confirmed gone after SIGKILL" },
    awaitingInput: bool("a process of the tree stopped waiting for terminal input it cannot get (SIGTTIN: a read of a terminal it does not own); corral ended the tree at once instead of waiting for the timeout"),
    scrubbed: SCRUBBED,
    elapsedMs: integer("since the command started"),
  }, ["done", "command", "pid", "exit", "status", "output", "bytes", "lines", "elided", "spill", "survivors", "scrubbed", "awaitingInput"]),

  async answer(input: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer> {
    let run: Run;
    let deadline: number | null;
    if (typeof input.cursor === "string") {
      ({ run, deadline } = resumed(call, input.cursor));
    } else {
      const launch = prepareLaunch(input, call, true);
      const budget = typeof input.budget === "number" ? input.budget : call.options.budget;
      run = await call.runs.start(launch, {
        cwd: typeof input.cwd === "string" ? input.cwd : process.cwd(),
        timeoutMs: typeof input.timeoutMs === "number" ? input.timeoutMs : DEFAULT_TIMEOUT_MS,
        graceMs: typeof input.graceMs === "number" ? input.graceMs : call.config.graceMs,
        keepBytes: Math.ceil(budget / 2),
        spill: input.spill !== false,
        stdin: typeof input.stdin === "string" ? input.stdin : null,
      });
      deadline = null;
    }
    const slice = waitSlice(deadline, call.options.waitCapMs);
    const until = Date.now() + slice.ms;
    // A first notification at once: a client that resets its timeout on progress hears from the call from the start.
    call.progress(run.store.totalBytes, `${run.line}: running (pid ${run.pid})`);
    let lastProgress = Date.now();
    while (run.result === null && !call.signal.aborted && Date.now() < until) {
      await Promise.race([run.ended, pause(Math.min(STOPPED_CHECK_MS, until - Date.now()), call.signal)]);
      if (run.result !== null) break;
      if (treeIsStopped(run)) {
        // Stopped reading a terminal it does not own (SIGTTIN): no input will ever come, so
        // the answer comes now, not at the timeout, and the tree is ended.
        run.stoppedForInput = true;
        await run.child.terminate();
        await run.ended;
        break;
      }
      if (Date.now() - lastProgress >= call.options.progressEveryMs) {
        lastProgress = Date.now();
        const { bytes, lines } = run.store.progress(0);
        call.progress(bytes, `${run.line}: running ${Math.round((Date.now() - run.startedAt) / 1000)} s, ${lines} lines, ${bytes} bytes of output`);
      }
    }
    if (call.signal.aborted && run.result === null) {
      // The client cancelled: the call's tree ends with it.
      await run.child.terminate();
      await run.ended;
      call.runs.forget(run.id);
      throw new ToolError("cancelled", `run ${run.line} was cancelled; its tree was ended`);
    }
    if (run.result === null) {
      const cursor = call.cursors.issue("run", { run: run.id });
      return answerOf(run, call, cursor);
    }
    call.runs.forget(run.id);
    return answerOf(run, call, null);
  },
};

function resumed(call: ToolCall, cursor: string): { run: Run; deadline: null } {
  const { run: id } = call.cursors.take<{ run: number }>("run", cursor);
  const run = call.runs.get(id);
  if (run === undefined) throw new ToolError("unknown_cursor", `run ${id} is no longer held by this server; start it again`);
  return { run, deadline: null };
}

function answerOf(run: Run, call: ToolCall, cursor: string | null): ToolAnswer {
  const snapshot = run.store.snapshot();
  const shaped = streamForModel(snapshot, call.options.maxLineChars, run.store.spillPath);
  const result = run.result;
  const facts = result?.facts ?? null;
  const status = facts === null ? null : exitStatusOf(facts);
  const structured = {
    done: cursor === null,
    ...(cursor !== null ? { cursor } : {}),
    command: run.line,
    pid: run.pid,
    exit: facts === null ? null : {
      code: facts.code,
      signal: facts.signal,
      timedOut: facts.timedOut,
      forced: facts.forced,
      durationMs: facts.durationMs,
      outputComplete: facts.outputComplete,
    },
    status,
    output: shaped.text,
    bytes: snapshot.bytes,
    lines: snapshot.lines,
    elided: shaped.elided,
    clippedLines: shaped.clippedLines,
    spill: run.store.spillPath,
    survivors: run.survivors.map((s) => ({ pid: s.pid, argv: [...s.argv] })),
    uncertain: [...(result?.uncertain ?? [])],
    awaitingInput: run.stoppedForInput,
    scrubbed: [...run.scrubbed],
    elapsedMs: Date.now() - run.startedAt,
  };
  return { structured, text: renderRun(structured) };
}

function renderRun(s: { done: boolean; cursor?: string; command: string; status: number | null; exit: { timedOut: boolean } | null; output: string; survivors: { pid: number; argv: string[] }[]; spill: string | null; scrubbed: string[]; awaitingInput: boolean; bytes: number; lines: number }): string {
  const head = !s.done
    ? `still running: ${s.command} (${s.lines} lines so far); call run with cursor ${s.cursor} to keep waiting`
    : `${s.command}: exit status ${s.status}${s.exit?.timedOut ? " (timed out; the tree was ended)" : ""}; ${s.lines} lines, ${s.bytes} bytes`;
  const notes = [
    ...(s.awaitingInput ? ["it stopped waiting for terminal input it cannot get, so corral ended it: give its input with `stdin`, or run it in a terminal session (terminal_open)"] : []),
    ...(s.survivors.length > 0 ? [`left running and ended: ${s.survivors.map((v) => `${v.argv.join(" ") || "?"} (pid ${v.pid})`).join(", ")}`] : []),
    ...(s.spill !== null ? [`all output: ${s.spill}`] : []),
    ...(s.scrubbed.length > 0 ? [withheldNote(s.scrubbed).slice(1)] : []),
  ];
  return [head, ...notes, "---", s.output].join("\n");
}
