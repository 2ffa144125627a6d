// `corral pty screen`: the rows as text, with escapes (--ansi), as a picture
// (--svg, --html), or the whole snapshot as JSON.
import { writeFileSync } from "node:fs";
import type { CorralContext } from "../../shared/context.ts";
import type { ScreenFlags } from "./flags.ts";
import { replyBody, reportFailure, sessionOnly, withAgent } from "../../shared/agent-reach.ts";
import { UsageError } from "../../shared/exit-status.ts";
import type { ScreenView } from "../../../lib/agent/protocol/messages.ts";

/** Prints a session's screen. */
export async function ptyScreenAction(this: CorralContext, flags: ScreenFlags, session: string): Promise<void> {
  const scrollback = flags.scrollback;
  try {
    checkFormats(flags);
  } catch (error) {
    reportFailure(this, error);
    return;
  }
  const wantStyles = flags.styles || flags.ansi || flags.svg !== undefined || flags.html !== undefined;
  await withAgent(this, flags, async (client) => {
    const screen: { screen: ScreenView } = replyBody(
      await client.call({
        op: "screen",
        session,
        ...(flags.since !== undefined ? { since: flags.since } : {}),
        ...(scrollback !== undefined ? { scrollback } : {}),
        ...(wantStyles ? { styles: true } : {}),
      }),
    );
    const { screen: view } = screen;
    const picture = { ...view, session: view.id };
    if (flags.svg !== undefined || flags.html !== undefined) {
      const { screenSvg } = await import("../../../lib/pty/screen-svg.ts");
      const { screenHtml } = await import("../../../lib/pty/screen-html.ts");
      if (flags.svg !== undefined) writeOut(this, flags.svg, screenSvg(picture));
      if (flags.html !== undefined) writeOut(this, flags.html, screenHtml(picture));
      if (!flags.json && !flags.ansi) return;
    }
    if (flags.json) {
      const { styles: _styles, ...rest } = view;
      this.process.stdout.write(`${JSON.stringify({ ...screen, screen: flags.styles ? view : rest })}\n`);
      return;
    }
    if (flags.ansi) {
      const { ansiLine } = await import("../../../lib/pty/screen-ansi.ts");
      this.process.stdout.write((view.styles ?? []).map((runs) => `${ansiLine(runs)}\n`).join(""));
      return;
    }
    this.process.stdout.write([...(view.scrollback ?? []), ...view.lines].map((l) => `${l}\n`).join(""));
  }, sessionOnly(this, session));
}

function checkFormats(flags: ScreenFlags): void {
  if (flags.styles && !flags.json) throw new UsageError("--styles goes with --json (corral pty screen ID --json --styles); for escapes use --ansi");
  if (flags.ansi && flags.json) throw new UsageError("--ansi and --json are two ways to print the screen: choose one (--json --styles gives the colours as data)");
  if (flags.ansi && flags.scrollback !== undefined) throw new UsageError("--ansi prints the visible rows only; drop --scrollback");
  if (flags.svg === "" || flags.html === "") throw new UsageError("--svg and --html need a file name (or - for stdout)");
}

function writeOut(ctx: CorralContext, file: string, text: string): void {
  if (file === "-") {
    ctx.process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    throw new UsageError(`cannot write ${file}: ${typeof code === "string" ? code : String(error)}; give a writable path (or - for stdout)`);
  }
}
