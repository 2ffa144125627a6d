// The one error a spill file raises, with the path and errno code as fields so
// callers can word their own message (collect makes it a usage error).

/** A spill file could not be opened or written; names the path and the cause. */
export class SpillError extends Error {
  readonly path: string;
  readonly code: string | undefined;
  constructor(path: string, action: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const why = typeof code === "string" ? describeCode(code) : String((cause as Error)?.message ?? cause);
    super(`cannot ${action} spill file ${path}: ${why}`);
    this.name = "SpillError";
    this.path = path;
    this.code = typeof code === "string" ? code : undefined;
  }
}

function describeCode(code: string): string {
  const known: Record<string, string> = {
    ENOENT: "no such directory (create it first)",
    EACCES: "permission denied (choose a writable path)",
    EISDIR: "it is a directory (give a file path)",
    ENOTDIR: "a parent is not a directory",
    ENOSPC: "no space left on the device",
    EROFS: "read-only file system",
    ELOOP: "it is a symbolic link, which corral does not follow (give the real path)",
  };
  return known[code] ?? code;
}
