import type { Duplex } from "node:stream";

/**
 * Counts the writes `socket` hands to the operating system (one system call each, whatever
 * was corked together into it), from now until `stop()`. Node's net.Socket sends every write,
 * single or gathered, through its `_writeGeneric`.
 */
export function countSocketWrites(socket: Duplex): { readonly count: number; stop(): void } {
  const target = socket as Duplex & { _writeGeneric: (...args: unknown[]) => unknown };
  const writeGeneric = target._writeGeneric;
  let count = 0;
  target._writeGeneric = function (this: unknown, ...args: unknown[]) {
    count++;
    return writeGeneric.apply(this, args);
  };
  return {
    get count() {
      return count;
    },
    stop: () => void (target._writeGeneric = writeGeneric),
  };
}
