import type { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { SequencedQueryQueue } from "../../../harness/pglite-query-queue";

// The order in which the queue hands wire-protocol messages of several connections to PGlite's
// one session. A stand-in session records what it runs and says whether a transaction is open.

function fakeSession() {
  const ran: string[] = [];
  let inTransaction = false;
  const db = {
    runExclusive: <T>(task: () => Promise<T>) => task(),
    async execProtocolRawStream(message: Uint8Array, { onRawData }: { onRawData: (data: Uint8Array) => void }) {
      const text = new TextDecoder().decode(message);
      ran.push(text);
      if (text.endsWith("BEGIN")) inTransaction = true;
      if (text.endsWith("COMMIT") || text.endsWith("ROLLBACK")) inTransaction = false;
      onRawData(new Uint8Array(1));
    },
    isInTransaction: () => inTransaction,
    exec: async (sql: string) => {
      ran.push(`exec ${sql}`);
      inTransaction = false;
    },
  };
  return { db: db as unknown as PGlite, ran };
}

/** A message of type `type` (P, B, E, S, Q…) whose payload names its connection. */
const message = (type: string, label: string) => new TextEncoder().encode(`${type}${label}`);

describe("SequencedQueryQueue", () => {
  it("never lets another connection's message in between a Parse and its Sync", async () => {
    const { db, ran } = fakeSession();
    const queue = new SequencedQueryQueue(db);
    const done = [
      queue.enqueue(1, message("P", "1"), () => {}),
      // Connection 2's whole query arrives while connection 1 has only sent its Parse.
      queue.enqueue(2, message("P", "2"), () => {}),
      queue.enqueue(2, message("B", "2"), () => {}),
      queue.enqueue(2, message("S", "2"), () => {}),
    ];
    await Promise.resolve();
    const rest = [queue.enqueue(1, message("B", "1"), () => {}), queue.enqueue(1, message("S", "1"), () => {})];
    await Promise.all([...done, ...rest]);
    expect(ran).toEqual(["P1", "B1", "S1", "P2", "B2", "S2"]);
  });

  it("keeps a connection's transaction together until it ends", async () => {
    const { db, ran } = fakeSession();
    const queue = new SequencedQueryQueue(db);
    const first = queue.enqueue(1, message("Q", "1 BEGIN"), () => {});
    const other = queue.enqueue(2, message("Q", "2 SELECT"), () => {});
    await first;
    await Promise.all([
      queue.enqueue(1, message("Q", "1 UPDATE"), () => {}),
      queue.enqueue(1, message("Q", "1 COMMIT"), () => {}),
    ]);
    await other;
    expect(ran).toEqual(["Q1 BEGIN", "Q1 UPDATE", "Q1 COMMIT", "Q2 SELECT"]);
  });

  it("rolls back and moves on when a connection leaves mid-transaction", async () => {
    const { db, ran } = fakeSession();
    const queue = new SequencedQueryQueue(db);
    await queue.enqueue(1, message("Q", "1 BEGIN"), () => {});
    const waiting = queue.enqueue(2, message("Q", "2 SELECT"), () => {});
    queue.clearQueueForHandler(1);
    await queue.clearTransactionIfNeeded(1);
    await waiting;
    expect(ran).toEqual(["Q1 BEGIN", "exec ROLLBACK", "Q2 SELECT"]);
  });

  it("runs messages of connections that are between queries in arrival order", async () => {
    const { db, ran } = fakeSession();
    const queue = new SequencedQueryQueue(db);
    await Promise.all([
      queue.enqueue(1, message("Q", "1"), () => {}),
      queue.enqueue(2, message("Q", "2"), () => {}),
      queue.enqueue(3, message("Q", "3"), () => {}),
    ]);
    expect(ran).toEqual(["Q1", "Q2", "Q3"]);
  });
});
