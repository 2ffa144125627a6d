// `--help` fitted to the reader's width. stricli prints the usage lines, the
// description and the flag table as written, so on an 80-column terminal a
// 180-character usage line was broken by the terminal in mid-word. Here the
// help text is wrapped before it is written: to $COLUMNS when set, else the
// terminal's width, else 80 (a pipe, a file). Lines are broken at spaces
// only, never inside a word; a word longer than the width stays whole on a
// line of its own. Loaded only when help is asked for (run-routes.ts).

/** The width to wrap to: $COLUMNS, else the terminal's, else 80; at least 20. */
export function helpWidth(env: Readonly<Record<string, string | undefined>>, stream: { isTTY?: boolean; columns?: number }): number {
  const fromEnv = /^\d+$/.test(env.COLUMNS ?? "") ? Number(env.COLUMNS) : 0;
  const terminal = fromEnv > 0 ? fromEnv : stream.isTTY === true && (stream.columns ?? 0) > 0 ? stream.columns as number : 80;
  return Math.max(20, terminal);
}

// deno-lint-ignore no-control-regex -- colour escapes are what this skips
const ANSI = /\x1b\[[0-9;]*m/g;

/** Columns a string takes, colour escapes aside. */
function visible(text: string): number {
  return [...text.replace(ANSI, "")].length;
}

/** A section heading of stricli's help (USAGE, FLAGS, ...) or the `Examples:` line. */
function isHeading(line: string): boolean {
  const plain = line.replace(ANSI, "");
  return /^[A-Z][A-Z ]*$/.test(plain) || /^[A-Z][a-z ]*:$/.test(plain);
}

/** Words of a usage or example line: split at spaces outside [...] and <...>, so `[--key name]` stays one. */
function usageWords(text: string): string[] {
  const words: string[] = [];
  const closers: string[] = [];
  let word = "";
  for (const [index, ch] of [...text].entries()) {
    if (ch === "[") closers.push("]");
    else if (ch === "<" && /[a-z]/i.test(text[index + 1] ?? "")) closers.push(">");
    else if (ch === closers.at(-1)) closers.pop();
    if (ch === " " && closers.length === 0) {
      if (word !== "") words.push(word);
      word = "";
    } else {
      word += ch;
    }
  }
  if (word !== "") words.push(word);
  return words;
}

/** Fills `words` into lines of at most `width` columns: the first starts with `first`, the others with `indent` spaces. */
function fill(words: readonly string[], first: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && visible(line) + 1 + visible(word) > width) {
      lines.push(line);
      line = " ".repeat(indent);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** One line longer than `width`, wrapped with the indent its kind calls for. */
function wrapLine(line: string, width: number): string[] {
  const lead = /^ */.exec(line)?.[0] ?? "";
  const plain = line.replace(ANSI, "");
  // A table row (flags, arguments, commands): the text after the first gap of
  // two or more spaces is the description; continuation lines align with it.
  const row = /^( *\S.*?) {2,}(\S.*)$/.exec(line);
  if (lead.length > 0 && row !== null) {
    const head = row[1] as string;
    const column = visible(line) - visible(row[2] as string);
    if (column <= width / 2 && !/^ *corral /.test(plain)) {
      const words = (row[2] as string).split(/ +/);
      return fill(words, `${head}${" ".repeat(column - visible(head))}`, column, width);
    }
  }
  // A usage or example line, or any other indented line: continuation lines indented 4 more.
  const words = usageWords(line.slice(lead.length));
  return fill(words, lead, Math.min(lead.length + 4, Math.floor(width / 2)), width);
}

/** The help text wrapped to `width` columns. */
export function wrapHelp(text: string, width: number): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i] as string;
    // A description paragraph: unindented lines up to a blank line or a heading.
    if (line !== "" && !line.startsWith(" ") && !isHeading(line)) {
      let end = i;
      while (end < lines.length && lines[end] !== "" && !(lines[end] as string).startsWith(" ") && !isHeading(lines[end] as string)) end++;
      const paragraph = lines.slice(i, end);
      if (paragraph.some((l) => visible(l) > width)) {
        out.push(...fill(paragraph.join(" ").split(/ +/).filter((w) => w !== ""), "", 0, width));
      } else {
        out.push(...paragraph);
      }
      i = end;
      continue;
    }
    out.push(...(visible(line) > width ? wrapLine(line, width) : [line]));
    i++;
  }
  return out.join("\n");
}

/** `stream` with every string it is given wrapped as help to `width` columns. */
export function helpStream(stream: NodeJS.WriteStream, width: number): NodeJS.WriteStream {
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : undefined;
    const wrapped = text !== undefined && text.replace(ANSI, "").startsWith("USAGE") ? wrapHelp(text, width) : chunk;
    return (stream.write as (...args: unknown[]) => boolean)(wrapped, ...rest);
  };
  return new Proxy(stream, {
    get(target, property) {
      if (property === "write") return write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
