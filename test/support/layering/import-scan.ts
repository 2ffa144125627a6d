// The module specifiers a TypeScript file imports, for the layering checker
// (check-layers.ts). TypeScript 7 ships no JavaScript compiler API and
// esbuild drops `import type` before reporting imports, yet a type import is
// as much an arrow between folders as any other; so this is a small tokenizer
// of our own. It skips comments, strings, template literals and regular
// expressions, so an `import ... from "x"` written inside one is not counted.

/** One import or re-export of another module. */
export interface ImportRef {
  readonly specifier: string;
  /** `import("x")`: loaded lazily (also `typeof import("x")` in a type). */
  readonly dynamic: boolean;
  /** 1-based line of the specifier. */
  readonly line: number;
  /** `import type ...` or `export type ... from`: erased, so nothing is loaded at run time. */
  readonly typeOnly: boolean;
}

type Token =
  | { readonly kind: "word"; readonly text: string; readonly line: number }
  | { readonly kind: "string"; readonly text: string; readonly line: number }
  | { readonly kind: "punct"; readonly text: string; readonly line: number };

/** After these a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set([
  "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await",
]);
const REGEX_AFTER_PUNCT = new Set("(,=:[!&|?{};+-*%<>~^".split("")); // not ) ] `
const WORD = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Every import, `export ... from` and `import()` in `source`, in order. */
export function importsOf(source: string): ImportRef[] {
  const tokens = tokenize(source);
  const found = new Map<number, ImportRef>();
  const add = (at: number, dynamic: boolean, typeOnly = false) => {
    const t = tokens[at];
    if (t?.kind === "string" && !found.has(at)) found.set(at, { specifier: t.text, dynamic, line: t.line, typeOnly });
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== "word" || (t.text !== "import" && t.text !== "export")) continue;
    const before = tokens[i - 1];
    // obj.import, but not ...import("x")
    if (before?.kind === "punct" && before.text === "." && tokens[i - 2]?.text !== ".") continue;
    const next = tokens[i + 1];
    if (t.text === "import" && next?.kind === "string") {
      add(i + 1, false); // import "./side-effect.ts"
      continue;
    }
    if (t.text === "import" && next?.kind === "punct" && next.text === "(") {
      add(i + 2, true);
      continue;
    }
    // `import a, { b as c, type D } from "x"`, `export * as ns from "x"`:
    // only names, braces, commas and `*` may stand between the keyword and `from`.
    for (let j = i + 1; j < tokens.length; j++) {
      const u = tokens[j] as Token;
      if (u.kind === "word") {
        if (u.text === "from" && tokens[j + 1]?.kind === "string") {
          add(j + 1, false, j > i + 2 && tokens[i + 1]?.kind === "word" && tokens[i + 1]?.text === "type");
          break;
        }
        continue;
      }
      if (u.kind === "punct" && "{},*".includes(u.text)) continue;
      break;
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line);
}

/**
 * Lines where `source` uses one of the global objects `names` (`Deno.`,
 * `process.`), outside comments and strings, and not as a property (`x.Deno.`).
 */
export function globalUses(source: string, names: ReadonlySet<string>): { name: string; line: number }[] {
  const tokens = tokenize(source);
  return tokens.flatMap((t, i) => {
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (t.kind !== "word" || !names.has(t.text) || after?.kind !== "punct" || after.text !== ".") return [];
    if (before?.kind === "punct" && before.text === ".") return [];
    return [{ name: t.text, line: t.line }];
  });
}

/**
 * The tokens of `source` outside comments and template text, for rules that
 * look for a pattern of code (house.ts): words, punctuation, and string
 * literals written in double quotes ('Deno' is `"Deno"`).
 */
export function tokenWords(source: string): { text: string; line: number }[] {
  return tokenize(source).map((t) => ({ text: t.kind === "string" ? JSON.stringify(t.text) : t.text, line: t.line }));
}

/** Words, string literals and punctuation; comments, numbers' dots, templates and regexes are consumed. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  /** Brace depth inside each open `${`; a `}` at depth 0 resumes the template. */
  const templates: number[] = [];
  let line = 1;
  let i = 0;
  const n = source.length;

  /** True when the template literal ended, false at a `${` substitution. */
  const skipTemplateText = (): boolean => {
    // i is just after the opening backquote or the `}` closing a substitution.
    while (i < n) {
      const c = source[i] as string;
      if (c === "\\") i += 2;
      else if (c === "`") {
        i++;
        return true;
      } else if (c === "$" && source[i + 1] === "{") {
        templates.push(0);
        i += 2;
        return false;
      } else {
        if (c === "\n") line++;
        i++;
      }
    }
    return true;
  };

  const regexAllowed = () => {
    const last = tokens[tokens.length - 1];
    if (last === undefined) return true;
    if (last.kind === "word") return REGEX_AFTER_WORD.has(last.text);
    if (last.kind === "string") return false;
    return REGEX_AFTER_PUNCT.has(last.text);
  };

  while (i < n) {
    const c = source[i] as string;
    if (c === "\n") {
      line++;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      i++;
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === "\n") line++;
      i = stop;
    } else if (c === "'" || c === '"') {
      const start = line;
      let text = "";
      i++;
      while (i < n && source[i] !== c && source[i] !== "\n") {
        if (source[i] === "\\") {
          text += source[i + 1] ?? "";
          i += 2;
        } else text += source[i++];
      }
      i++;
      tokens.push({ kind: "string", text, line: start });
    } else if (c === "`") {
      i++;
      // A finished template is a value: a `/` after it divides.
      if (skipTemplateText()) tokens.push({ kind: "punct", text: "`", line });
    } else if (c === "/" && regexAllowed()) {
      let inClass = false;
      i++;
      while (i < n && source[i] !== "\n") {
        const r = source[i];
        if (r === "\\") i++;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        i++;
      }
      i++;
      while (i < n && WORD.test(source[i] as string)) i++; // flags
      tokens.push({ kind: "word", text: "<regex>", line });
    } else if (WORD.test(c)) {
      const start = i;
      while (i < n && WORD.test(source[i] as string)) i++;
      tokens.push({ kind: "word", text: source.slice(start, i), line });
    } else {
      i++;
      if (templates.length > 0) {
        const depth = templates.length - 1;
        if (c === "{") templates[depth] = (templates[depth] as number) + 1;
        else if (c === "}") {
          if (templates[depth] === 0) {
            templates.pop();
            if (skipTemplateText()) tokens.push({ kind: "punct", text: "`", line });
            continue;
          }
          templates[depth] = (templates[depth] as number) - 1;
        }
      }
      tokens.push({ kind: "punct", text: c, line });
    }
  }
  return tokens;
}
