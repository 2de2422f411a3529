import type { PaymentStatus } from "./store.js";

/**
 * Every webhook notification the sandbox sent or chose not to send, with each attempt, so
 * tests can check what the app received and wait for it instead of sleeping. In memory only:
 * deliveries are about one run, they are not persisted.
 */

/**
 * - normal: the notification of a change of the order;
 * - redelivery: the same raw body again, on request;
 * - duplicate: the same raw body right after a normal one;
 * - bad_signature / unsigned: a wrong x-pay-content-token, or none;
 * - out_of_order: a status the order does not have (or no longer has), sent without the FIFO;
 * - late: sent after a delay, without the FIFO.
 */
export const DELIVERY_KINDS = [
  "normal",
  "redelivery",
  "duplicate",
  "bad_signature",
  "unsigned",
  "out_of_order",
  "late",
] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/**
 * scheduled: not attempted yet (behind earlier deliveries of its order, or late); pending:
 * attempts under way, retries included; then delivered (a 200), failed (attempts used up) or
 * dropped (never sent).
 */
export const DELIVERY_STATES = ["scheduled", "pending", "delivered", "failed", "dropped"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** A state to filter or wait on; settled = delivered, failed or dropped. */
export type DeliveryStateFilter = DeliveryState | "settled";

const SETTLED: readonly DeliveryState[] = ["delivered", "failed", "dropped"];
export const isSettled = (state: DeliveryState) => SETTLED.includes(state);

export interface DeliveryAttempt {
  /** Sandbox clock, ISO 8601. */
  at: string;
  /** The receiver's HTTP status; absent when no reply came (refused, reset, timed out). */
  status?: number;
  error?: string;
  durationMs: number;
  /** The start of the receiver's reply body, to see why it refused. */
  responseBody?: string;
}

export interface Delivery {
  /** `dlv_…`; the body's `deliveryId` is the id of the first delivery of the same bytes. */
  id: string;
  externalTransactionId: string;
  /** The `data.paymentStatus` of the body. */
  paymentStatus: PaymentStatus;
  kind: DeliveryKind;
  state: DeliveryState;
  /** Where it goes; null when no webhook URL was set. */
  url: string | null;
  /** The exact raw body sent. */
  body: string;
  /** The x-pay-content-token header sent; absent for an unsigned delivery. */
  signature?: string;
  attempts: DeliveryAttempt[];
  /** Sandbox clock, ISO 8601. */
  createdAt: string;
  /** Why it was dropped or failed. */
  reason?: string;
}

export interface DeliveryFilter {
  id?: string;
  externalTransactionId?: string;
  kind?: DeliveryKind;
  state?: DeliveryStateFilter;
}

export type WaitOutcome = { kind: "reached" | "timeout" | "closed"; deliveries: Delivery[] };

interface Waiter {
  filter: DeliveryFilter;
  count: number;
  finish: (kind: WaitOutcome["kind"]) => void;
}

function matches(delivery: Delivery, filter: DeliveryFilter): boolean {
  const stateMatches =
    filter.state === undefined ||
    (filter.state === "settled" ? isSettled(delivery.state) : delivery.state === filter.state);
  return (
    stateMatches &&
    (filter.id === undefined || delivery.id === filter.id) &&
    (filter.externalTransactionId === undefined || delivery.externalTransactionId === filter.externalTransactionId) &&
    (filter.kind === undefined || delivery.kind === filter.kind)
  );
}

export class DeliveryLog {
  private entries: Delivery[] = [];
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly capacity = 5000) {}

  add(delivery: Delivery): void {
    this.entries.push(delivery);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    this.changed();
  }

  /** Oldest first. */
  list(filter: DeliveryFilter = {}): Delivery[] {
    return this.entries.filter((delivery) => matches(delivery, filter));
  }

  get(id: string): Delivery | undefined {
    return this.entries.find((delivery) => delivery.id === id);
  }

  /** The most recent delivery of an order, of any kind. */
  latestOf(externalTransactionId: string): Delivery | undefined {
    return this.entries.findLast((delivery) => delivery.externalTransactionId === externalTransactionId);
  }

  clear(): void {
    this.entries = [];
  }

  /** Called whenever a delivery changes, so waiters whose condition now holds are answered. */
  changed(): void {
    for (const waiter of this.waiters) if (this.list(waiter.filter).length >= waiter.count) waiter.finish("reached");
  }

  /**
   * Resolves as soon as `count` deliveries match `filter` (its state included): `reached`
   * with them; `timeout` after `timeoutMs` with the deliveries that match all but the state.
   */
  waitFor(filter: DeliveryFilter, count: number, timeoutMs: number): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        filter,
        count,
        finish: (kind) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          const deliveries = kind === "reached" ? this.list(filter) : this.list({ ...filter, state: undefined });
          resolve({ kind, deliveries });
        },
      };
      const timer = setTimeout(() => waiter.finish("timeout"), timeoutMs);
      this.waiters.add(waiter);
      this.changed();
    });
  }

  /** Answers every waiter now (`closed`), so close() never waits for a long poll. */
  close(): void {
    for (const waiter of this.waiters) waiter.finish("closed");
  }
}
