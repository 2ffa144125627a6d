// The config file's keys, as documented in the README section
// "Configuration and completions": YAML text in, a CorralConfig out (file
// values over DEFAULT_CONFIG). Loaded only when a config file exists, since
// the `yaml` package costs a few ms of start-up.
import { isMap, isScalar, LineCounter, parseDocument, type Node, type Pair } from "yaml";
import { ConfigError } from "./config-error.ts";
import { type CorralConfig, DEFAULT_CONFIG, type GuardianMode } from "./schema.ts";
import {
  mapEntries,
  readChoice,
  readDuration,
  readDurationOrOff,
  readInteger,
  lineOf,
  readNameList,
  readSize,
  readWord,
  type YamlSource,
} from "./yaml-fields.ts";

/** Top-level keys, in the order `corral config` prints them. */
export const TOP_KEYS = ["grace", "max-bytes", "head-bytes", "env", "guardian", "scrub", "quiet", "heartbeat", "terminal", "agent", "hosts"] as const;
const ENV_KEYS = ["scrub", "scrub-extra", "keep", "keep-extra"] as const;
const TERMINAL_KEYS = ["cols", "rows", "term"] as const;
const AGENT_KEYS = ["idle-timeout", "orphan-wait"] as const;
// The guardian's --orphan-wait takes at most a day (native/main.c).
const ORPHAN_WAIT_MAX_MS = 86_400_000;
const GUARDIAN_MODES: readonly GuardianMode[] = ["auto", "always", "never"];

// A syntax error carries only a position; naming the key written on that
// line (when there is one) makes the message point where people look.
function keyOnLine(text: string, line: number | undefined): string | undefined {
  if (line === undefined) return undefined;
  return /^\s*(?:-\s*)?([A-Za-z][\w-]*)\s*:/.exec(text.split("\n")[line - 1] ?? "")?.[1];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };

/**
 * Parses config file text. `scrub`/`keep` replace the default lists;
 * `scrub-extra`/`keep-extra` add to them (to the replaced list when both
 * are given).
 */
export function configFromYaml(text: string, file: string): CorralConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const syntax = doc.errors[0];
  if (syntax !== undefined) {
    const line = syntax.linePos?.[0].line;
    const first = (syntax.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigError(file, line, keyOnLine(text, line), `not valid YAML: ${first}`);
  }
  const src: YamlSource = { file, lines };
  const out: Mutable<CorralConfig> = {
    ...DEFAULT_CONFIG,
    env: { scrub: [...DEFAULT_CONFIG.env.scrub], keep: [...DEFAULT_CONFIG.env.keep] },
    terminal: { ...DEFAULT_CONFIG.terminal },
    agent: { ...DEFAULT_CONFIG.agent },
    hosts: {},
  };
  for (const entry of mapEntries(src, doc.contents, "", TOP_KEYS)) {
    switch (entry.key as (typeof TOP_KEYS)[number]) {
      case "grace":
        out.graceMs = readDuration(src, entry);
        break;
      case "max-bytes":
        out.maxBytes = readSize(src, entry, true);
        break;
      case "head-bytes":
        out.headBytes = readSize(src, entry, true);
        break;
      case "guardian":
        out.guardian = readChoice(src, entry, GUARDIAN_MODES);
        break;
      case "scrub":
      case "quiet":
        out[entry.key as "scrub" | "quiet"] = readChoice(src, entry, ["true", "false"]) === "true";
        break;
      case "heartbeat": {
        const word = entry.value !== null && isScalar(entry.value) ? String(entry.value.value) : "";
        out.heartbeat = word === "auto" || word === "off" ? word : readDuration(src, entry, 1);
        break;
      }
      case "env": {
        const extra: { scrub: string[]; keep: string[] } = { scrub: [], keep: [] };
        for (const e of mapEntries(src, entry.value, "env", ENV_KEYS)) {
          const names = readNameList(src, e);
          if (e.key === "scrub") out.env.scrub = names;
          else if (e.key === "keep") out.env.keep = names;
          else extra[e.key === "scrub-extra" ? "scrub" : "keep"].push(...names);
        }
        out.env.scrub = [...new Set([...out.env.scrub, ...extra.scrub])];
        out.env.keep = [...new Set([...out.env.keep, ...extra.keep])];
        break;
      }
      case "terminal":
        for (const e of mapEntries(src, entry.value, "terminal", TERMINAL_KEYS)) {
          if (e.key === "term") out.terminal.term = readWord(src, e);
          else out.terminal[e.key as "cols" | "rows"] = readInteger(src, e, 1, 1000);
        }
        break;
      case "agent":
        for (const e of mapEntries(src, entry.value, "agent", AGENT_KEYS)) {
          if (e.key === "idle-timeout") out.agent.idleTimeoutMs = readDuration(src, e, 1);
          else out.agent.orphanWaitMs = readDurationOrOff(src, e, 1, ORPHAN_WAIT_MAX_MS);
        }
        break;
      case "hosts":
        out.hosts = readHosts(src, entry.value);
        break;
    }
  }
  return out;
}

/** `hosts:` names for `--host` (name: [user@]machine[:path-to-corral]); any name, each a word. */
function readHosts(src: YamlSource, node: Node | null): Record<string, string> {
  const hosts: Record<string, string> = {};
  if (node === null || (isScalar(node) && node.value === null)) return hosts;
  if (!isMap(node)) throw new ConfigError(src.file, lineOf(src, node), "hosts", "hosts must be a mapping of names to [user@]machine[:path-to-corral]");
  for (const pair of node.items as Pair<unknown, unknown>[]) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : "?";
    hosts[key] = readWord(src, { key, path: `hosts.${key}`, keyNode, value: (pair.value ?? null) as Node | null });
  }
  return hosts;
}
