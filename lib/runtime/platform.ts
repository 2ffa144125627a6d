// The runtime seam's interface: what corral needs from its JavaScript runtime
// that Node, Deno and Bun give in different ways (a connection to a Unix
// socket, a child started with a socket at its descriptor 3). The shapes are
// here, below everything that uses them; each runtime's way is a file of its
// own under node/, deno/ and bun/, loaded only when chosen. Which runtime this
// is gets asked in runtime-name.ts and nowhere outside lib/runtime.

/** What the holder of a UnixLink hears from it; none is called before the link is open. */
export interface UnixLinkEvents {
  /** Bytes from the peer; the array is the listener's to keep. */
  data(bytes: Uint8Array): void;
  /** The connection failed after it was open; close follows. */
  error(error: Error): void;
  /** The connection is closed, by either side or by an error. Called once. */
  close(): void;
}

/** An open connection to a Unix socket (the agent's). */
export interface UnixLink {
  /** Queues `bytes` in order; nothing is sent once closed. */
  write(bytes: Uint8Array): void;
  /** Stops reading (the peer then waits on a full socket): backpressure for a slow consumer. */
  pause(): void;
  resume(): void;
  /** Closes now; what is still queued is dropped, as net.Socket's destroy() drops it. */
  close(): void;
  readonly closed: boolean;
}

/** The part of net.Socket a guardian's owner uses, which Bun's and Deno's sockets are wrapped to give. */
export interface PlatformSocket {
  write(bytes: Uint8Array): unknown;
  pause(): unknown;
  resume(): unknown;
  /** Closes our side after what is queued (the guardian's lifeline rule applies). */
  end(): unknown;
  destroy(): unknown;
  readonly destroyed: boolean;
  /** Bytes queued here, not yet taken by the kernel. */
  readonly writableLength: number;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
}

/** The part of ChildProcess a guardian's owner uses, which Bun's and Deno's children are wrapped to give. */
export interface PlatformProcess {
  readonly pid?: number | undefined;
  kill(signal?: NodeJS.Signals | number): boolean;
  on(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}
