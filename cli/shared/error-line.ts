// Every error is one line on stderr (DESIGN.md 4.1), but the values it names
// come from the user: a path or a command may hold a newline, a carriage
// return or a terminal escape, which would split the line (a script reading
// stderr line by line sees two errors) or drive the terminal. Control
// characters are shown escaped, as JSON would write them.

/** `message` with control characters escaped (`\n`, `\r`, `\t`, `\x1b` ...), safe on one line. */
export function oneLine(message: string): string {
  // deno-lint-ignore no-control-regex
  return message.replace(/[\u0000-\u001f\u007f]/g, (c) => {
    switch (c) {
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      default:
        return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
    }
  });
}

/** The `corral: ...` line for stderr, newline included. */
export function errorLine(message: string): string {
  return `corral: ${oneLine(message)}\n`;
}
