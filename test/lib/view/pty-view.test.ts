// `pty view`: a read-only live view of a session on 127.0.0.1 behind a
// random token. Checked with a plain HTTP/WebSocket client (the token is
// required; the stream starts with the screen as it is and follows the
// program) and with headless Chromium (the page's xterm.js shows the text
// and updates when the program writes; typing into the page reaches nothing).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { privateAgent } from "../../support/agent-harness.ts";
import { corralCommand } from "../../support/corral-cli.ts";
import { waitFor } from "../../support/wait.ts";
import { openWs } from "../../support/ws-client.ts";

const agent = privateAgent("view");
const views = new Set<ChildProcess>();
after(async () => {
  for (const view of views) view.kill("SIGKILL");
  await agent.stop();
});
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => spawnSync(p, ["--version"]).status === 0) ?? "";

interface View {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
}

async function startView(session: string): Promise<View> {
  const [file, ...prefix] = corralCommand() as [string, ...string[]];
  const child = spawn(file, [...prefix, "pty", "view", session], { env: { ...process.env, ...agent.env }, stdio: ["ignore", "pipe", "pipe"] });
  views.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => {
      views.delete(child);
      resolve({ code, stderr });
    })
  );
  const url = await waitFor(() => (stdout.includes("\n") ? stdout.split("\n")[0] : undefined) || (child.exitCode !== null ? `exited: ${stderr}` : undefined), { what: "the view's URL" });
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{20,}\/$/);
  return { url, child, exited };
}

function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

async function bash(): Promise<string> {
  const id = (await agent.ok(["pty", "open", "--cols", "70", "--rows", "12", "--", "bash", "--norc", "--noprofile"])).trim();
  await agent.ok(["pty", "send", id, "printf '\\e[32mfirst %s\\e[0m\\n' text", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--regex", "^first text$", "--timeout", "20s"]);
  return id;
}

test("the token is required; the stream starts with the screen and follows the program; the view ends with it", async () => {
  const id = await bash();
  const view = await startView(id);
  const base = view.url.replace(/\/[^/]+\/$/, "");
  const token = view.url.split("/")[3] as string;
  assert.equal(await status(`${base}/`), 403, "no token");
  assert.equal(await status(`${base}/${"x".repeat(token.length)}/`), 403, "a wrong token");
  assert.equal(await status(`${base}/${token.slice(1)}/xterm.js`), 403, "a token one character short");
  assert.equal(await status(`${view.url}xterm.js`), 200, "xterm.js served with the token");
  assert.equal(await status(view.url), 200);
  const refused = await openWs(`${base}/stream`);
  assert.match(refused.status, / 403 /, "a WebSocket without the token");
  refused.close();

  const ws = await openWs(`${view.url}stream`);
  assert.match(ws.status, / 101 /);
  await waitFor(() => ws.binaryText().includes("first text"), { what: "the current screen on the stream" });
  assert.deepEqual(JSON.parse(ws.messages[0]?.text ?? "{}"), { event: "size", cols: 70, rows: 12 });
  ws.sendText("echo typed-into-view\r"); // read-only: goes nowhere
  await agent.ok(["pty", "send", id, "echo later-$((6*7))", "--key", "Enter"]);
  await waitFor(() => ws.binaryText().includes("later-42"), { what: "new output on the stream" });
  await agent.ok(["pty", "resize", id, "60", "10"]);
  await waitFor(() => ws.messages.some((m) => m.text !== undefined && JSON.parse(m.text).event === "resize"), { what: "a resize event" });
  const screen = await agent.ok(["pty", "screen", id]);
  assert.doesNotMatch(screen, /typed-into-view/);

  await agent.ok(["pty", "send", id, "exit", "--key", "Enter"]);
  const end = await view.exited;
  assert.equal(end.code, 0, end.stderr);
  assert.match(end.stderr, /view closed \(the program exited\)/);
  await ws.closed;
});

test("Ctrl-C ends the view with status 0; an unknown session exits 1", async () => {
  const id = await bash();
  const view = await startView(id);
  view.child.kill("SIGINT");
  const end = await view.exited;
  assert.equal(end.code, 0, end.stderr);
  const unknown = await agent.run(["pty", "view", "no-such-session"]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no-such-session/);
  const badPort = await agent.run(["pty", "view", id, "--port", "70000"]);
  assert.equal(badPort.code, 2);
  await agent.ok(["pty", "close", id, "--force"]);
});

test("headless Chromium shows the session's text and follows it", { skip: chromiumPath === "" && "chromium not installed (Debian: chromium)" }, async (t) => {
  const id = await bash();
  const view = await startView(id);
  const { chromium } = await import("playwright-core");
  // As root on CI: no sandbox; a small /dev/shm in containers: use /tmp. Generous deadlines on a loaded machine.
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-dev-shm-usage"], timeout: 120_000 });
  t.after(() => browser.close());
  const page = await browser.newPage();
  await page.goto(view.url, { timeout: 120_000 });
  // Expressions as text: they run in the page, where `document` is (this file has no DOM types).
  const rowsText = () => page.evaluate<string>(`document.querySelector(".xterm-rows")?.textContent ?? ""`);
  const pageStatus = () => page.evaluate<string>(`document.getElementById("status")?.textContent ?? ""`);
  await waitFor(async () => (await rowsText()).includes("first text"), { what: "the page to show the screen" });
  assert.equal(await pageStatus(), "live (read-only)");
  await page.keyboard.type("echo from-the-page\n");
  await agent.ok(["pty", "send", id, "echo update-$((6*7))", "--key", "Enter"]);
  await waitFor(async () => (await rowsText()).includes("update-42"), { what: "the page to show new output" });
  // ED 1 from the last column of a screen that has not scrolled (12 rows, 70 columns) made
  // xterm.js throw, in the agent and in the page alike; the page must go on drawing after it.
  // The Enter for `read -r` goes once the command's output shows: bash has the terminal back in
  // canonical mode by then. Typed while readline still held it raw, the CR stayed a CR, `read`
  // took the next line too, and the echo below never ran.
  await agent.ok(["pty", "send", id, "clear; printf '\\e[12;69Hx\\e[1J'; read -r", "--key", "Enter", "--wait-regex", "^x$", "--timeout", "30s"]);
  await agent.ok(["pty", "send", id, "--key", "Enter"]);
  await agent.ok(["pty", "send", id, "echo after-$((6*7))-erase", "--key", "Enter"]);
  await agent.ok(["pty", "wait", id, "--regex", "^after-42-erase$", "--timeout", "30s"]);
  try {
    await waitFor(async () => (await rowsText()).includes("after-42-erase"), { what: "the page to go on drawing after ED 1 in the last column" });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the page shows: ${JSON.stringify(await rowsText())}`);
  }
  const agentRows = async () => (JSON.parse(await agent.ok(["pty", "screen", id, "--json"])).screen.lines as string[]).map((line) => line.trimEnd()).join("\n");
  const pageRows = () =>
    page.evaluate<string>(`(() => {
      const term = window.corralTerminal, buffer = term.buffer.active, rows = [];
      for (let i = 0; i < term.rows; i++) rows.push((buffer.getLine(buffer.baseY + i)?.translateToString(true) ?? "").trimEnd());
      return rows.join("\\n");
    })()`);
  /** Once the agent's screen is still, the page must show the same rows. */
  const pageShowsAgentScreen = async (what: string) => {
    await agent.ok(["pty", "wait", id, "--stable", "200ms", "--timeout", "30s"]);
    const expected = await agentRows();
    try {
      await waitFor(async () => (await pageRows()) === expected, { what });
    } catch (error) {
      throw new Error(`${(error as Error).message}; the agent shows ${JSON.stringify(expected)}, the page ${JSON.stringify(await pageRows())}`);
    }
  };
  // The alternate screen shown after a smaller size and then a larger one: xterm.js kept the
  // alternate screen's room at the first height (alt-screen-rows.ts) and drew two lines and the
  // cursor where the agent (and tmux) have none. The page's rows must be the agent's. Each
  // resize waits until the page has drawn what came before it, so the check is of the rows'
  // room, not of when the page took the resize.
  await pageShowsAgentScreen("the page to be the agent's before the resizes");
  await agent.ok(["pty", "resize", id, "--cols", "70", "--rows", "10"]);
  await agent.ok(["pty", "send", id, "clear; printf '\\e[?1049h'; seq 1 30; read -r", "--key", "Enter", "--wait-regex", "^30$", "--timeout", "30s"]);
  await pageShowsAgentScreen("the page's alternate screen to be the agent's at 70x10");
  await agent.ok(["pty", "resize", id, "--cols", "70", "--rows", "14"]);
  await agent.ok(["pty", "send", id, "--key", "Enter"]);
  await agent.ok(["pty", "send", id, "echo alt-$((6*7))", "--key", "Enter", "--wait-regex", "^alt-42$", "--timeout", "30s"]);
  await pageShowsAgentScreen("the page's alternate screen to be the agent's after the resizes");
  // A scroll region set on the alternate screen and left set holds on the normal screen (xterm.js
  // kept one per screen: scroll-margins.ts): the lines below scroll inside it, on the page too.
  await agent.ok(["pty", "send", id, "printf '\\e[2;4r\\e[?1049l\\e[4;1H'; seq 1 5; echo region-$((6*7))", "--key", "Enter", "--wait-regex", "^region-42$", "--timeout", "30s"]);
  await pageShowsAgentScreen("the page's screen to be the agent's with the region left set");
  // Narrowing a screen not yet full: xterm.js dropped the rows below the prompt and moved it down
  // (reflow-rows.ts); the agent keeps them, as tmux does, and so must the page.
  await agent.ok(["pty", "send", id, "printf '\\e[r'; clear; seq -s' ' 1 25; seq -s' ' 100 118; echo narrow-$((6*7))", "--key", "Enter", "--wait-regex", "^narrow-42$", "--timeout", "30s"]);
  await pageShowsAgentScreen("the page to be the agent's before narrowing");
  await agent.ok(["pty", "resize", id, "--cols", "35", "--rows", "14"]);
  await pageShowsAgentScreen("the page's screen to be the agent's after narrowing a screen not yet full");
  assert.doesNotMatch(await agent.ok(["pty", "screen", id]), /from-the-page/, "the page cannot type");
  await agent.ok(["pty", "close", id, "--force"]);
  await waitFor(async () => (await pageStatus()) === "the program exited", { what: "the page to say the program exited" });
  assert.equal((await view.exited).code, 0);
});
