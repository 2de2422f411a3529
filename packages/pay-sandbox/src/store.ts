import { createHash, randomBytes, randomInt } from "node:crypto";
import type { SandboxClock } from "./clock.js";

/**
 * The sandbox's state: payment orders and issued access tokens. In memory, with change
 * notifications that persistence, webhook delivery and the order driver subscribe to.
 */

export const PAYMENT_STATUSES = ["PEN", "CON", "CAN"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Contract 1: mobile-wallet express, bank payment reference, the service's direct method. */
export const PAYMENT_METHODS = ["FPMCXEXPRSS", "FPSOLPGEXT", "FPSOLPG"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const CANCEL_REASONS = ["cancelled", "expired"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** The fields of a createPaymentOrder request (contract 2.2), as the client sent them. */
export interface OrderFields {
  externalTransactionId: string;
  clientId: string;
  applicationUUID: string;
  name: string;
  image?: string;
  amount: number;
  quantity: number;
  additionalInfo?: string;
}

export interface Order extends OrderFields {
  referenceNumber: string;
  status: PaymentStatus;
  createdAt: string;
  updatedAt: string;
  /** How the shopper paid or is paying; set by the control API (or, later, the hosted popup). */
  paymentMethod?: PaymentMethod;
  /** Set when the shopper chooses the bank-reference method (FPSOLPGEXT). */
  paymentReference?: string;
  entityNumber?: string;
  /** When the payment reference stops being payable, on the sandbox clock (ISO 8601). */
  referenceExpiresAt?: string;
  /** Why a CAN order was cancelled. */
  cancelReason?: CancelReason;
}

/** What a status change may record besides the status. */
export type StatusDetails = Partial<Pick<Order, "paymentMethod" | "cancelReason">>;

/** A payment reference handed to a PEN order (bank-reference method). */
export type PaymentReferenceDetails = Required<
  Pick<Order, "paymentMethod" | "paymentReference" | "entityNumber" | "referenceExpiresAt">
>;

export type StoreChange =
  | { kind: "order_created"; order: Order }
  | { kind: "order_status_changed"; order: Order; from: PaymentStatus }
  | { kind: "payment_reference_set"; order: Order }
  | { kind: "tokens_changed" }
  | { kind: "reset" };

/** What persistence writes and reads back. Tokens are kept only as digests. */
export interface StoreSnapshot {
  orders: Order[];
  tokens: { digest: string; expiresAt: number }[];
}

export type TokenCheck = "valid" | "expired" | "unknown";

/** Contract 3: PEN may become CON or CAN; CON and CAN are final. */
const ALLOWED_TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PEN: ["CON", "CAN"],
  CON: [],
  CAN: [],
};

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: PaymentStatus,
    readonly to: PaymentStatus,
  ) {
    super(from === "PEN" ? `an order cannot go from PEN to ${to}` : `the order is already ${from}, a final state`);
    this.name = "InvalidTransitionError";
  }
}

/** The order state machine: the order in its new state, or InvalidTransitionError. */
export function transition(order: Order, to: PaymentStatus, at: string): Order {
  if (!ALLOWED_TRANSITIONS[order.status].includes(to)) throw new InvalidTransitionError(order.status, to);
  return { ...order, status: to, updatedAt: at };
}

const digestOf = (token: string) => createHash("sha256").update(token).digest("hex");

export class SandboxStore {
  private readonly orders = new Map<string, Order>();
  /** referenceNumber → externalTransactionId: the hosted checkout knows an order by its reference. */
  private readonly references = new Map<string, string>();
  /** Token digest → expiry (ms on the sandbox clock). Revoking clears the map. */
  private readonly tokens = new Map<string, number>();
  private readonly listeners: ((change: StoreChange) => void)[] = [];

  constructor(
    private readonly clock: SandboxClock,
    snapshot?: StoreSnapshot,
  ) {
    for (const order of snapshot?.orders ?? []) this.add(order);
    for (const token of snapshot?.tokens ?? []) this.tokens.set(token.digest, token.expiresAt);
  }

  subscribe(listener: (change: StoreChange) => void): void {
    this.listeners.push(listener);
  }

  issueToken(lifetimeSeconds: number): string {
    this.dropExpiredTokens();
    const token = randomBytes(32).toString("base64url");
    this.tokens.set(digestOf(token), this.clock.now() + lifetimeSeconds * 1000);
    this.emit({ kind: "tokens_changed" });
    return token;
  }

  checkToken(token: string): TokenCheck {
    const expiresAt = this.tokens.get(digestOf(token));
    if (expiresAt === undefined) return "unknown";
    return this.clock.now() < expiresAt ? "valid" : "expired";
  }

  /** Invalidates every issued token; returns how many there were. */
  revokeTokens(): number {
    const count = this.tokens.size;
    this.tokens.clear();
    this.emit({ kind: "tokens_changed" });
    return count;
  }

  findOrder(externalTransactionId: string): Order | undefined {
    return this.orders.get(externalTransactionId);
  }

  findOrderByReference(referenceNumber: string): Order | undefined {
    const externalTransactionId = this.references.get(referenceNumber);
    return externalTransactionId === undefined ? undefined : this.orders.get(externalTransactionId);
  }

  listOrders(): Order[] {
    return [...this.orders.values()];
  }

  createOrder(fields: OrderFields): Order {
    const at = this.clock.iso();
    const order: Order = {
      ...fields,
      referenceNumber: this.newReferenceNumber(),
      status: "PEN",
      createdAt: at,
      updatedAt: at,
    };
    this.add(order);
    this.emit({ kind: "order_created", order });
    return order;
  }

  /** Moves a known order through the state machine; throws InvalidTransitionError from a final state. */
  changeStatus(order: Order, to: PaymentStatus, details: StatusDetails = {}): Order {
    const changed = { ...transition(order, to, this.clock.iso()), ...details };
    this.orders.set(changed.externalTransactionId, changed);
    this.emit({ kind: "order_status_changed", order: changed, from: order.status });
    return changed;
  }

  /**
   * Gives a PEN order a payment reference; it stays PEN until the reference is paid (CON) or
   * expires (CAN). A final order cannot get one: InvalidTransitionError, as for PEN → PEN.
   */
  setPaymentReference(order: Order, details: PaymentReferenceDetails): Order {
    if (order.status !== "PEN") throw new InvalidTransitionError(order.status, "PEN");
    const changed: Order = { ...order, ...details, updatedAt: this.clock.iso() };
    this.orders.set(changed.externalTransactionId, changed);
    this.emit({ kind: "payment_reference_set", order: changed });
    return changed;
  }

  reset(): void {
    this.orders.clear();
    this.references.clear();
    this.tokens.clear();
    this.emit({ kind: "reset" });
  }

  snapshot(): StoreSnapshot {
    return {
      orders: this.listOrders(),
      tokens: [...this.tokens].map(([digest, expiresAt]) => ({ digest, expiresAt })),
    };
  }

  /** Nine random digits (the first non-zero), unique among the orders. */
  private newReferenceNumber(): string {
    let reference: string;
    do reference = String(randomInt(100_000_000, 1_000_000_000));
    while (this.references.has(reference));
    return reference;
  }

  private add(order: Order): void {
    this.orders.set(order.externalTransactionId, order);
    this.references.set(order.referenceNumber, order.externalTransactionId);
  }

  private dropExpiredTokens(): void {
    const now = this.clock.now();
    for (const [digest, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(digest);
  }

  private emit(change: StoreChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
