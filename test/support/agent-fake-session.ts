// A fake terminal session for the agent's protocol tests: a line editor
// that echoes what is written and exits on "exit\r". No PTY, no emulator, so
// the framing, routing and lifetime tests exercise only the agent.
import { createHash } from "node:crypto";
import type { AgentSession, OpenSpec, SessionFactory, ScreenSnapshot, WaitOutcome } from "../../lib/agent/server/session-port.ts";
import { AgentError } from "../../lib/agent/protocol/messages.ts";
import type { ExitFacts } from "../../lib/spawn/exit-facts.ts";

const KNOWN_KEYS: Record<string, string> = { enter: "\r", tab: "\t", "c-c": "\x03" };

/** Sessions made by the fake factory, for tests to inspect. */
export const fakeSessions: FakeSession[] = [];

export class FakeSession implements AgentSession {
  readonly pid: number;
  readonly startedAt = Date.now();
  lines: string[] = [""];
  #cols: number;
  #rows: number;
  #exit: ExitFacts | null = null;
  #lastHash = "";
  #outputs = new Set<(b: Uint8Array) => void>();
  #exits = new Set<(f: ExitFacts | null) => void>();
  #changes = new Set<() => void>();
  #position = 0;

  constructor(readonly argv: readonly string[], spec: OpenSpec, pid: number) {
    this.pid = pid;
    this.#cols = spec.cols;
    this.#rows = spec.rows;
  }

  size() {
    return { cols: this.#cols, rows: this.#rows };
  }
  alive() {
    return this.#exit === null;
  }
  exitFacts() {
    return this.#exit;
  }
  position(): number {
    return this.#position;
  }
  write(data: string | Uint8Array): Promise<number> {
    const at = this.#position;
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    this.#position += new TextEncoder().encode(text).length;
    for (const ch of text) {
      if (ch === "\r") {
        if (this.lines.at(-1) === "exit") this.#finish({ code: 0, signal: null });
        this.lines.push("");
      } else {
        this.lines[this.lines.length - 1] += ch;
      }
    }
    for (const listener of this.#outputs) listener(new TextEncoder().encode(text));
    for (const listener of this.#changes) listener();
    return Promise.resolve(at);
  }
  checkKeys(keys: readonly string[]): void {
    for (const key of keys) if (!(key.toLowerCase() in KNOWN_KEYS)) throw new AgentError("unknown_key", `unknown key "${key}"`);
  }
  sendKeys(keys: readonly string[], typed = ""): Promise<number> {
    this.checkKeys(keys);
    return this.write(typed + keys.map((k) => KNOWN_KEYS[k.toLowerCase()]).join(""));
  }
  screen(options: { since?: string; peek?: boolean }): Promise<ScreenSnapshot> {
    const lines = this.lines.slice(-this.#rows);
    const hash = createHash("sha1").update(JSON.stringify([lines, this.#cols, this.#rows])).digest("hex").slice(0, 16);
    const changed = hash !== (options.since ?? this.#lastHash);
    if (options.peek !== true) this.#lastHash = hash;
    return Promise.resolve({
      lines,
      size: { cols: this.#cols, rows: this.#rows },
      cursor: { row: lines.length - 1, col: (lines.at(-1) ?? "").length, visible: true },
      alternateScreen: false,
      title: "",
      hash,
      changed,
      alive: this.alive(),
      exit: this.exitFacts(),
    });
  }
  wait(options: { text?: readonly string[]; exit?: boolean; timeoutMs: number; signal?: AbortSignal }): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const check = () => {
        if (options.text?.some((t) => this.lines.join("\n").includes(t))) return done("text");
        if (options.exit === true && this.#exit !== null) return done("exit");
      };
      const done = (fired: WaitOutcome["fired"]) => {
        clearTimeout(timer);
        this.#changes.delete(check);
        resolve({ fired, position: this.#position, windowExceeded: false });
      };
      const timer = setTimeout(() => done("timeout"), options.timeoutMs);
      this.#changes.add(check);
      options.signal?.addEventListener("abort", () => done("timeout"));
      check();
    });
  }
  resize(cols: number, rows: number): void {
    this.#cols = cols;
    this.#rows = rows;
  }
  close(): Promise<ExitFacts | null> {
    if (this.#exit === null) this.#finish({ code: null, signal: "SIGHUP" });
    return Promise.resolve(this.#exit);
  }
  onOutput(listener: (bytes: Uint8Array) => void): () => void {
    this.#outputs.add(listener);
    return () => this.#outputs.delete(listener);
  }
  onExit(listener: (facts: ExitFacts | null) => void): () => void {
    this.#exits.add(listener);
    return () => this.#exits.delete(listener);
  }
  #finish(how: { code: number | null; signal: string | null }): void {
    this.#exit = { ...how, timedOut: false, forced: false, durationMs: Date.now() - this.startedAt, outputComplete: true };
    for (const listener of this.#exits) listener(this.#exit);
    for (const listener of this.#changes) listener();
  }
}

let nextPid = 900_000;

/** A SessionFactory making FakeSessions; argv ["fail"] fails to spawn. */
export const fakeFactory: SessionFactory = (spec) => {
  if (spec.argv[0] === "fail") return Promise.reject(new AgentError("spawn_failed", "fake spawn failure"));
  const session = new FakeSession(spec.argv, spec, nextPid++);
  fakeSessions.push(session);
  return Promise.resolve(session);
};
