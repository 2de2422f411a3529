import { randomInt } from "node:crypto";
import type { SandboxClock } from "./clock.js";
import type { Delivery } from "./delivery-log.js";
import type { Order, SandboxStore, StatusDetails } from "./store.js";
import type { ShapeOptions, WebhookDispatcher } from "./webhooks.js";

/**
 * What the service and the shopper do to an order after it is created, driven from the control
 * API (or, for magic amounts, by the sandbox itself): approve, hand out a payment reference,
 * confirm, cancel, expire. Every change goes through the store's state machine, so the
 * webhook subscriber notifies it like any other.
 */

/** createPaymentOrder with one of these amounts drives itself (README: magic amounts). */
export const MAGIC_AMOUNTS: Readonly<Record<number, "approve" | "cancel" | "pending">> = {
  1001: "approve",
  1002: "cancel",
  1003: "pending",
};
export const MAGIC_DELAY_MS = 200;

/** The contract's example referencePaymentLifeSpan (8, 2.9); the sandbox reads it as minutes. */
export const DEFAULT_REFERENCE_LIFESPAN_MINUTES = 1440;
/** How often references are checked against the base clock; moving the sandbox clock checks at once. */
const EXPIRY_CHECK_MS = 1000;

export interface ReferenceOptions {
  paymentReference?: string;
  entityNumber?: string;
  lifeSpanMinutes?: number;
}

export interface DriveResult {
  order: Order;
  /** The notifications the change caused. */
  deliveries: Delivery[];
}

export class OrderDriver {
  /** Pending magic-amount actions, cancelled by reset and close. */
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly expiryTimer: NodeJS.Timeout;

  constructor(
    private readonly store: SandboxStore,
    private readonly clock: SandboxClock,
    private readonly webhooks: WebhookDispatcher,
    private readonly log: (line: string) => void,
  ) {
    store.subscribe((change) => {
      if (change.kind === "order_created") this.scheduleMagic(change.order);
    });
    // unref: a check that never keeps a process alive on its own.
    this.expiryTimer = setInterval(() => this.guard("expiring references", () => this.expireDue()), EXPIRY_CHECK_MS);
    this.expiryTimer.unref();
  }

  /** Express method approved: CON. */
  approve(order: Order, shape: ShapeOptions): DriveResult {
    return this.change(order, "CON", { paymentMethod: "FPMCXEXPRSS" }, shape);
  }

  /** Bank-reference method: the order stays PEN with a reference to pay before referenceExpiresAt. */
  pending(order: Order, reference: ReferenceOptions, shape: ShapeOptions): DriveResult {
    const lifeSpanMs = (reference.lifeSpanMinutes ?? DEFAULT_REFERENCE_LIFESPAN_MINUTES) * 60_000;
    const { result, deliveries } = this.webhooks.shaped(shape, () =>
      this.store.setPaymentReference(order, {
        paymentMethod: "FPSOLPGEXT",
        paymentReference: reference.paymentReference ?? digits(9),
        entityNumber: reference.entityNumber ?? digits(5),
        referenceExpiresAt: new Date(this.clock.now() + lifeSpanMs).toISOString(),
      }),
    );
    return { order: result, deliveries };
  }

  /** Paid in the hosted checkout with the service's direct method: CON by FPSOLPG, whatever came before. */
  payDirect(order: Order, shape: ShapeOptions): DriveResult {
    return this.change(order, "CON", { paymentMethod: "FPSOLPG" }, shape);
  }

  /** Paid: CON, by the order's method so far (a reference) or the service's direct method. */
  confirm(order: Order, shape: ShapeOptions): DriveResult {
    return this.change(order, "CON", { paymentMethod: order.paymentMethod ?? "FPSOLPG" }, shape);
  }

  cancel(order: Order, shape: ShapeOptions): DriveResult {
    return this.change(order, "CAN", { cancelReason: "cancelled" }, shape);
  }

  expire(order: Order, shape: ShapeOptions): DriveResult {
    return this.change(order, "CAN", { cancelReason: "expired" }, shape);
  }

  /** Cancels every PEN order whose reference has expired on the sandbox clock; returns them. */
  expireDue(): DriveResult[] {
    const now = this.clock.now();
    return this.store
      .listOrders()
      .filter(
        (order) =>
          order.status === "PEN" &&
          order.referenceExpiresAt !== undefined &&
          Date.parse(order.referenceExpiresAt) <= now,
      )
      .map((order) => this.expire(order, { delivery: "normal" }));
  }

  /** Cancels pending magic-amount actions. */
  reset(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  close(): void {
    this.reset();
    clearInterval(this.expiryTimer);
  }

  private change(order: Order, to: "CON" | "CAN", details: StatusDetails, shape: ShapeOptions): DriveResult {
    const { result, deliveries } = this.webhooks.shaped(shape, () => this.store.changeStatus(order, to, details));
    return { order: result, deliveries };
  }

  private scheduleMagic(created: Order): void {
    const action = MAGIC_AMOUNTS[created.amount];
    if (!action) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // The store replaces an order on every change: another object means someone (a test, a
      // person) has moved it since, and the sandbox leaves it alone.
      if (this.store.findOrder(created.externalTransactionId) !== created) return;
      const normal: ShapeOptions = { delivery: "normal" };
      this.guard(`magic amount ${created.amount}`, () =>
        action === "pending" ? this.pending(created, {}, normal) : this[action](created, normal),
      );
    }, MAGIC_DELAY_MS);
    timer.unref();
    this.timers.add(timer);
  }

  /** Timers have no caller to throw to: a failure is logged, never an unhandled exception. */
  private guard(what: string, run: () => unknown): void {
    try {
      run();
    } catch (error) {
      this.log(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** `count` random digits, the first non-zero. */
const digits = (count: number) => String(randomInt(10 ** (count - 1), 10 ** count));
