import type { PGlite } from "@electric-sql/pglite";

/**
 * A replacement for pglite-socket's query queue (0.2.x), which serialises the wire-protocol
 * messages of every connection onto PGlite's single session but switches connections between
 * any two messages unless a transaction is open. The extended query protocol sends a query
 * as Parse, Bind, Describe, Execute, Sync, and they share the session's unnamed statement: a
 * Parse from another connection arriving between them replaces it, and the Bind then fails
 * ("bind message supplies 3 parameters, but prepared statement "" requires 5"). Any app with
 * a pool of more than one connection hits it under concurrency.
 *
 * This queue keeps one connection's messages together from its first message up to its Sync
 * (or a simple Query), and for as long as a transaction it opened is in progress. Everything
 * else matches the original: one message at a time, in arrival order.
 */

interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const SYNC = "S".charCodeAt(0);
const SIMPLE_QUERY = "Q".charCodeAt(0);
const TERMINATE = "X".charCodeAt(0);

/** True when `message` leaves its connection mid-conversation (an extended-protocol message before Sync). */
function opensSequence(message: Uint8Array): boolean {
  const type = message[0];
  // The startup message has no type byte: it starts with its length, whose first byte is 0.
  return type !== undefined && type !== 0 && type !== SYNC && type !== SIMPLE_QUERY && type !== TERMINATE;
}

export class SequencedQueryQueue {
  private readonly queue: Pending[] = [];
  private processing = false;
  /** The connection whose sequence or transaction is in progress; only its messages may run. */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
        // The owner's next message has not arrived yet; enqueue() resumes when it does.
        if (index === -1) break;
        const [item] = this.queue.splice(index, 1);
        if (!item) break;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          this.owner = null;
          item.reject(error);
          continue;
        }
        this.owner = opensSequence(item.message) || this.db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const item = this.queue[i]!;
      if (item.handlerId !== handlerId) continue;
      this.queue.splice(i, 1);
      item.reject(new Error("Handler disconnected"));
    }
  }

  /** A connection that went away mid-transaction or mid-sequence must not block the others. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    await this.process();
  }
}
