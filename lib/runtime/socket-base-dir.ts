// Where the private directories of guardian sockets are made. A Unix socket
// path must fit in sun_path (108 bytes on Linux, 104 on macOS), and below the
// base come a mkdtemp name and `guardian-PID-HEX.sock` (about 60 bytes). A
// long $TMPDIR (a CI workspace, a test's scratch dir, macOS's /var/folders)
// would make every guardian fail to listen, so past that length the base is
// /tmp: the directory made there is still 0700 and ours.
import os from "node:os";

/** Room left in sun_path for what corral puts below the base dir. */
const ROOM_BELOW_BASE = 64;
const SUN_PATH_BYTES = 104;

/** os.tmpdir() when a guardian socket below it fits in sun_path, else /tmp. */
export function socketBaseDir(): string {
  const tmp = os.tmpdir();
  // TextEncoder, not Buffer.byteLength: Deno loads node:buffer on the first
  // touch of the Buffer global, about 4 ms of every `run` (issue 9).
  return new TextEncoder().encode(tmp).length + ROOM_BELOW_BASE <= SUN_PATH_BYTES ? tmp : "/tmp";
}
