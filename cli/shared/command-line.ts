// A command's argv as one line a person could paste into a shell: words
// that need it are single-quoted. One wording for every place corral names a
// command (jobs rows, reap, pty list, its own decision lines).

/** The command as one line (arguments with spaces or shell characters quoted). */
export function commandLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ");
}
