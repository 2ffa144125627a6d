// The two doors (native/client/corral-client.c, cli/commands/agent/
// command-line-door.ts): every command the agent serves answers through the
// native client exactly as through the JavaScript CLI, stdout, stderr and
// status byte for byte, error paths included; what it does not serve is
// handed over with the same argv; a listener that is not provably ours
// gets nothing. CORRAL_CLIENT=native makes the client fail instead of
// handing over, so an equal answer proves the agent served it.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";
import { privateAgent, type PrivateAgent } from "../../support/agent-harness.ts";
import { repoRoot } from "../../support/corral-cli.ts";
import { plantedAgent } from "../../support/planted-agent.ts";
import { scratchDir } from "../../support/scratch-dir.ts";
import { BIN, runBin } from "../../support/bin-answer.ts";
import { waitFor } from "../../support/wait.ts";
import { PROTOCOL_VERSION } from "../../../lib/agent/protocol/version.ts";
import { ADOPTED, INPUT_FRAME_BYTES, MAX_FRAME_BYTES, Tag } from "../../../lib/agent/protocol/frames.ts";
import { LEDGER_BYTES, LEDGER_HEADER_BYTES, LEDGER_MAGIC, LedgerState, LedgerWord } from "../../../lib/agent/protocol/connect-ledger.ts";

/** `dist/corral ARGS` (the bin a user's install runs) through one door. */
const bin = runBin;

let agent: PrivateAgent;
before(async () => {
  agent = privateAgent("doors");
  await agent.ok(["pty", "open", "--name", "sh", "--", "sh", "-c", "echo shown; exec cat"]);
  await agent.ok(["pty", "wait", "sh", "--text", "shown"]);
  await agent.ok(["run", "--bg", "--name", "gen", "--", "sh", "-c", "seq 1 5"]);
  await agent.ok(["jobs", "wait", "gen"]);
});
after(async () => {
  await agent.stop();
});

test("every served command line answers the same through both doors, errors included", async () => {
  const { hash } = (JSON.parse(await agent.ok(["pty", "screen", "sh", "--json"])) as { screen: { hash: string } }).screen;
  const lines: string[][] = [
    ["--version"],
    ["--help"],
    ["version"],
    ["version", "--json"],
    ["help"],
    ["help", "pty", "screen"],
    ["pty", "--help"],
    ["pty", "screen", "--help"],
    ["jobs", "--help"],
    ["agent", "--help"],
    ["pty", "screen", "sh"],
    ["pty", "screen", "sh", "--json", "--since", hash],
    ["pty", "screen", "sh", "--ansi"],
    ["pty", "screen", "nosuch"],
    ["pty", "screen"],
    ["pty", "screen", "sh", "--bogus"],
    ["pty", "wait", "sh", "--text", "shown"],
    ["pty", "wait", "sh", "--text", "shown", "--json"],
    ["pty", "wait", "sh", "--text", "never-there", "--timeout", "200ms"],
    ["pty", "wait", "sh", "--timeout", "soon"],
    ["pty", "wait", "nosuch", "--text", "x"],
    ["pty", "send", "nosuch", "x"],
    ["pty", "send", "sh", "--key", "NoSuchKey"],
    ["pty", "resize", "nosuch", "80", "24"],
    ["pty", "close", "nosuch"],
    ["pty", "nosuch"],
    ["pty"],
    ["-v"],
    ["jobs"],
    ["jobs", "--json"],
    ["jobs", "wait", "gen"],
    ["jobs", "wait", "%99"],
    ["collect", "--job", "gen"],
    ["collect", "--job", "gen", "--tail-lines", "2"],
    ["collect", "--job", "%99"],
    ["reap", "--help"],
    ["pty", "open", "--help"],
    ["pty", "open"],
    ["pty", "open", "--cols", "wide", "--", "true"],
    ["pty", "open", "--name", "sh", "--", "true"],
    ["pty", "open", "--env", "NOEQUALS", "--", "true"],
    ["run", "--bg", "--help"],
    ["run", "--bg"],
    ["run", "--bg", "--timeout", "5s", "--", "true"],
    ["run", "--bg", "--name", "1bad", "--", "true"],
    ["run", "--bg", "--name", "gen", "--", "true"],
    ["run", "--bg", "--cwd", "/no/such/dir", "--", "true"],
    ["run", "--bg", "--", "/no/such/program"],
  ];
  for (const line of lines) {
    const js = await bin(line, { ...agent.env, CORRAL_CLIENT: "js" });
    const native = await bin(line, { ...agent.env, CORRAL_CLIENT: "native" });
    assert.deepEqual(native, js, `corral ${line.join(" ")}: the native door answered otherwise`);
  }
});

test("a served command's effects are the JavaScript CLI's: send, then the screen shows it", async () => {
  const sent = await bin(["pty", "send", "sh", "typed-natively", "--key", "Enter", "--wait-text", "typed-natively", "--json"], { ...agent.env, CORRAL_CLIENT: "native" });
  assert.equal(sent.status, 0, sent.stderr);
  assert.equal(typeof (JSON.parse(sent.stdout) as { at: unknown }).at, "number");
  const screen = await bin(["pty", "screen", "sh"], { ...agent.env, CORRAL_CLIENT: "native" });
  assert.match(screen.stdout, /typed-natively/);
});

test("pty send --stdin: the native client streams its stdin to the agent, answers as the JavaScript CLI does", async () => {
  const lines: [string[], string][] = [
    [["pty", "send", "sh", "--stdin"], "from-stdin-DOOR\n"],
    [["pty", "send", "sh", "--stdin", "--wait-text", "from-stdin-wait-"], "from-stdin-wait-DOOR\n"],
    [["pty", "send", "sh", "--stdin"], ""],
    [["pty", "send", "nosuch", "--stdin"], "x\n"],
    [["pty", "send", "sh", "--stdin", "--key", "NoSuchKey"], "x\n"],
  ];
  for (const [line, input] of lines) {
    const js = await bin(line, { ...agent.env, CORRAL_CLIENT: "js" }, { input: input.replace("DOOR", "js") });
    const native = await bin(line, { ...agent.env, CORRAL_CLIENT: "native" }, { input: input.replace("DOOR", "native") });
    assert.deepEqual(native, js, `corral ${line.join(" ")}: the native door answered otherwise`);
  }
  // More than one input frame (64 KiB each), every byte in order. The
  // session is raw and silent, so what reaches the program is exactly what
  // was sent: no line-discipline echo interleaved with the program's output.
  const dir = scratchDir(undefined, "corral-doors-stdin-");
  const received = path.join(dir, "received");
  await agent.ok(["pty", "open", "--name", "many", "--", "sh", "-c", `stty raw -echo && echo ready && exec cat > '${received}'`]);
  await agent.ok(["pty", "wait", "many", "--text", "ready"]);
  let many = "";
  for (let n = 0; many.length < 200 * 1024; n++) many += `stdin line ${n}\n`;
  many += "end-of-many\n";
  const sent = await bin(["pty", "send", "many", "--stdin"], { ...agent.env, CORRAL_CLIENT: "native" }, { input: many });
  assert.deepEqual(sent, { status: 0, stdout: "", stderr: "" });
  const got = await waitFor(() => {
    const text = existsSync(received) ? readFileSync(received, "utf8") : "";
    return text.length >= many.length && text;
  }, { timeoutMs: 60_000, what: "all of the input in the session's file" });
  assert.equal(got, many);
  await agent.ok(["pty", "close", "many"]);
});

test("pty open served: the program starts in the caller's directory, --cwd relative to it, with the caller's environment", async (t) => {
  const dir = scratchDir(t, "corral-doors-open-");
  const sub = path.join(dir, "sub");
  mkdirSync(sub);
  const env = { ...agent.env, DOORS_MARK: "from-the-caller" };
  const facts: Record<string, string> = {};
  for (const door of ["js", "native"] as const) {
    for (const [name, cwdFlag] of [[`here-${door}`, []], [`sub-${door}`, ["--cwd", "sub"]]] as const) {
      const opened = await bin(["pty", "open", "--name", name, ...cwdFlag, "--", "sh", "-c", 'echo "$(pwd)|$DOORS_MARK|done"; exec cat'], { ...env, CORRAL_CLIENT: door }, { cwd: dir });
      assert.equal(opened.status, 0, `${door} ${name}: ${opened.stderr}`);
      assert.match(opened.stdout, /^\d+\n$/, "the id alone, as always");
      const waited = await bin(["pty", "wait", name, "--text", "|done", "--json"], agent.env);
      assert.equal(waited.status, 0, waited.stderr);
      facts[name] = (await bin(["pty", "screen", name], agent.env)).stdout.split("\n")[0] ?? "";
      await bin(["pty", "close", name], agent.env);
    }
  }
  assert.deepEqual(facts, {
    "here-js": `${dir}|from-the-caller|done`,
    "sub-js": `${sub}|from-the-caller|done`,
    "here-native": `${dir}|from-the-caller|done`,
    "sub-native": `${sub}|from-the-caller|done`,
  });
});

test("run --bg served: the job starts in the caller's directory, --cwd relative to it, with the caller's environment", async (t) => {
  const dir = scratchDir(t, "corral-doors-bg-");
  mkdirSync(path.join(dir, "sub"));
  const env = { ...agent.env, DOORS_MARK: "from-the-caller" };
  const outputs: string[] = [];
  for (const door of ["js", "native"] as const) {
    for (const cwdFlag of [[], ["--cwd", "sub"]]) {
      const started = await bin(["run", "--bg", ...cwdFlag, "--", "sh", "-c", 'echo "$(pwd)|$DOORS_MARK"'], { ...env, CORRAL_CLIENT: door }, { cwd: dir });
      assert.equal(started.status, 0, `${door}: ${started.stderr}`);
      assert.match(started.stdout, /^%\d+\n$/, "the job's id alone, as always");
      const collected = await bin(["collect", "--job", started.stdout.trim(), "--follow"], agent.env);
      outputs.push(`${door} ${collected.stdout.trim()}`);
    }
  }
  assert.deepEqual(outputs, [
    `js ${dir}|from-the-caller`,
    `js ${dir}/sub|from-the-caller`,
    `native ${dir}|from-the-caller`,
    `native ${dir}/sub|from-the-caller`,
  ]);
});

test("what the agent does not serve is handed to the JavaScript CLI with the same argv", async () => {
  const handed = await bin(["run", "--", "sh", "-c", "echo 'a b'; echo err >&2; exit 3"], agent.env);
  assert.deepEqual(handed, { status: 3, stdout: "a b\n", stderr: "err\n" });
  const refused = await bin(["run", "--", "true"], { ...agent.env, CORRAL_CLIENT: "native" });
  assert.equal(refused.status, 125);
  assert.match(refused.stderr, /^corral: CORRAL_CLIENT=native: the agent does not serve this command \(.+\); unset CORRAL_CLIENT/);
  // A file named relative to the caller's directory is the caller's: handed over, written there.
  const dir = scratchDir(undefined, "corral-doors-svg-");
  const svg = await bin(["pty", "screen", "sh", "--svg", "s.svg"], agent.env, { cwd: dir });
  assert.equal(svg.status, 0, svg.stderr);
  assert.match(readFileSync(path.join(dir, "s.svg"), "utf8"), /<svg/);
  // So is a facts file (before, the agent served it and wrote it in its own directory).
  const facts = await bin(["collect", "--job", "gen", "--follow", "--facts", "f.json"], agent.env, { cwd: dir });
  assert.equal(facts.status, 0, facts.stderr);
  assert.equal((JSON.parse(readFileSync(path.join(dir, "f.json"), "utf8")) as { code: unknown }).code, 0);
});

test("without an agent the JavaScript CLI answers, as it always does", async (t) => {
  const stateDir = path.join(scratchDir(t, "corral-doors-none-"), "state");
  const env = { CORRAL_STATE_DIR: stateDir, CORRAL_SOCKET: "" };
  // Some commands start the agent to answer: whatever runs here is stopped after.
  t.after(async () => void (await bin(["agent", "stop", "--force"], { ...env, CORRAL_CLIENT: "js" })));
  const native = await bin(["jobs"], { ...env, CORRAL_CLIENT: "native" });
  assert.equal(native.status, 125);
  assert.match(native.stderr, /CORRAL_CLIENT=native: no agent of yours answers at /);
  const door = await bin(["jobs", "--json"], env);
  const js = await bin(["jobs", "--json"], { ...env, CORRAL_CLIENT: "js" });
  assert.deepEqual(door, js);
  assert.equal(door.status, 0, door.stderr);
});

test("an agent that closes the connection unread (stopping, killed): the client hands over, it does not die of SIGPIPE", async (t) => {
  // A listener of ours that drops each connection without reading it. The request (a command
  // line of 400 kB) cannot all fit in the socket's buffer, so the client's send meets the closed
  // connection whatever the timing: before, SIGPIPE killed the client there, with nothing said.
  // The JavaScript CLI connects again for a while (an agent going away drops connections only
  // for milliseconds), then says what it met.
  const stateDir = scratchDir(t, "corral-doors-dropped-");
  chmodSync(stateDir, 0o700);
  let connections = 0;
  const listener = net.createServer((connection) => {
    connections++;
    connection.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(path.join(stateDir, "agent.sock"), resolve));
  t.after(() => listener.close());
  const long = "x".repeat(100_000);
  const answer = await bin(["pty", "exec", "sh1", "--", long, long, long, long], { CORRAL_STATE_DIR: stateDir, CORRAL_SOCKET: "" });
  assert.equal(answer.status, 125, `killed by a signal (status null) or another status: ${answer.stderr}`);
  // EPIPE, or ECONNRESET when the JavaScript CLI's hello sat unread in the dropped connection.
  assert.match(
    answer.stderr,
    /^corral: the agent at \S+agent\.sock closed every connection before answering, for 2 s \(agent connection failed: (write|read) E[A-Z]+\); is it stopping\? see corral agent status\n$/,
    "the JavaScript CLI, handed over to, says what went wrong",
  );
  assert.ok(connections >= 2, `the client, then the JavaScript CLI it handed over to: ${connections} connections`);
});

test("the C client speaks the protocol version and framing of lib/agent/protocol", () => {
  const header = readFileSync(path.join(repoRoot, "native", "client", "client-protocol.h"), "utf8");
  const define = (name: string) => /^#define (\w+) (.+)$/gm.exec(header.slice(header.indexOf(`#define ${name} `)))?.[2]?.trim();
  assert.equal(Number(define("CORRAL_PROTOCOL_VERSION")), PROTOCOL_VERSION, "bump native/client/client-protocol.h with version.ts");
  assert.equal(define("CORRAL_MAX_FRAME_BYTES"), "(8u * 1024u * 1024u)");
  assert.equal(8 * 1024 * 1024, MAX_FRAME_BYTES);
  assert.equal(Number(define("CORRAL_TAG_JSON")), Tag.json);
  assert.equal(Number(define("CORRAL_TAG_OUTPUT")), Tag.output);
  assert.equal(Number(define("CORRAL_TAG_INPUT")), Tag.input);
  assert.equal(define("CORRAL_INPUT_FRAME_BYTES"), "(64u * 1024u)");
  assert.equal(64 * 1024, INPUT_FRAME_BYTES);
  assert.equal(Number(define("CORRAL_ADOPTED")), ADOPTED);
  assert.equal(define("CORRAL_LEDGER_BYTES"), "(4u * 1024u * 1024u)");
  assert.equal(4 * 1024 * 1024, LEDGER_BYTES);
  assert.equal(Number(define("CORRAL_LEDGER_HEADER_BYTES")), LEDGER_HEADER_BYTES);
  assert.equal(Number(define("CORRAL_LEDGER_MAGIC")?.replace(/u$/, "")), LEDGER_MAGIC);
  for (const [name, word] of Object.entries(LedgerWord)) assert.equal(Number(define(`CORRAL_LEDGER_WORD_${name.toUpperCase()}`)), word, name);
  for (const [name, state] of Object.entries(LedgerState)) assert.equal(Number(define(`CORRAL_LEDGER_${name.toUpperCase()}`)), state, name);
});

test("a listener that another user planted at a socket of ours is sent nothing", async (t) => {
  const planted = await plantedAgent(t, "door", BIN);
  if (typeof planted === "string") return t.skip(planted);
  const { user, stateDir } = planted;
  const answer = await bin(["pty", "list"], { CORRAL_STATE_DIR: stateDir, CORRAL_SOCKET: "", HOME: user.home }, { uid: user.uid, gid: user.gid, cwd: user.home });
  assert.notEqual(answer.status, 0, "a planted agent must be refused");
  assert.match(answer.stderr, /refusing the agent socket/);
  const { bytes, connections } = planted.received();
  assert.equal(bytes, 0, `the planted listener received ${bytes} bytes over ${connections} connections`);
});
