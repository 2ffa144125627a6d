// Whose files are whose: the uid every ownership check compares with (the
// agent's state dir and socket, a run's socket dir, the code cache).
import process from "node:process";

/** This process's uid; -1 where the platform has none, which owns nothing, so every ownership check refuses. */
export function currentUid(): number {
  return typeof process.getuid === "function" ? process.getuid() : -1;
}
