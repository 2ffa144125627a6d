// What counting widths as wcwidth does costs, against xterm's default
// (Unicode 6) in the same run: loading and the first write, memory loaded
// once and per terminal, and parsing wide text. xterm.js's own width addons
// are measured too when installed (they are not dependencies):
//   npm i --no-save @xterm/addon-unicode11 @xterm/addon-unicode-graphemes
// Each variant runs in its own process, so load costs are not shared.
import { spawnSync } from "node:child_process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fileURLToPath } from "node:url";
import type { Terminal } from "@xterm/headless";
import { loadTerminal } from "../../lib/pty/screen-emulator.ts";

const VARIANTS = ["unicode6", "wcwidth", "unicode11", "graphemes"] as const;
type Variant = (typeof VARIANTS)[number];

async function setup(variant: Variant): Promise<((t: Terminal) => void) | undefined> {
  try {
    if (variant === "wcwidth") return (await import("../../lib/pty/char-width.ts")).useCLibraryWidths;
    if (variant === "unicode11") {
      const name = "@xterm/addon-unicode11";
      const m = (await import(name)) as { Unicode11Addon?: new () => unknown; default?: { Unicode11Addon: new () => unknown } };
      const Addon = (m.Unicode11Addon ?? m.default?.Unicode11Addon) as new () => never;
      return (t) => {
        t.loadAddon(new Addon());
        t.unicode.activeVersion = "11";
      };
    }
    if (variant === "graphemes") {
      const name = "@xterm/addon-unicode-graphemes";
      const m = (await import(name)) as { UnicodeGraphemesAddon?: new () => unknown; default?: { UnicodeGraphemesAddon: new () => unknown } };
      const Addon = (m.UnicodeGraphemesAddon ?? m.default?.UnicodeGraphemesAddon) as new () => never;
      return (t) => t.loadAddon(new Addon());
    }
    return () => {};
  } catch {
    return undefined;
  }
}

async function measure(variant: Variant): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const live = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const Term = await loadTerminal();
  const before = live();
  const started = performance.now();
  const use = await setup(variant);
  if (use === undefined) {
    process.stdout.write(`  ${variant}: not installed, skipped\n`);
    return;
  }
  const first = new Term({ allowProposedApi: true });
  use(first);
  await new Promise<void>((resolve) => first.write("\u{1F600}x\u4E2D", resolve));
  const loadMs = performance.now() - started;
  const loaded = live() - before;
  const terms: Terminal[] = [];
  const base = live();
  for (let i = 0; i < 50; i++) {
    const t = new Term({ allowProposedApi: true });
    use(t);
    terms.push(t);
  }
  const perTerminal = (live() - base) / 50;
  const text = "\u{1F600}\u4E2D\u6587e\u0301 abc ".repeat(100_000);
  const parseStarted = performance.now();
  await new Promise<void>((resolve) => first.write(text, resolve));
  const parseMs = performance.now() - parseStarted;
  process.stdout.write(
    `  ${variant}: load + first write ${loadMs.toFixed(1)} ms, loaded once ${(loaded / 1024).toFixed(0)} KB, ` +
      `per terminal ${(perTerminal / 1024).toFixed(1)} KB, parsing ${(text.length / 1e6).toFixed(1)} M UTF-16 units of wide text ${parseMs.toFixed(0)} ms\n`,
  );
}

const only = process.argv[2] as Variant | undefined;
if (only !== undefined) await measure(only);
else {
  process.stdout.write("width tables, each in a fresh process (unicode6 is xterm's default, wcwidth corral's):\n");
  for (const variant of VARIANTS) {
    spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), variant], { stdio: "inherit" });
  }
}
