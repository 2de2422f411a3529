import { createHmac, randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { SandboxClock } from "./clock.js";
import { DeliveryLog, type Delivery, type DeliveryAttempt, type DeliveryKind } from "./delivery-log.js";
import type { SandboxSettings } from "./settings.js";
import type { Order, PaymentStatus, SandboxStore, StoreChange } from "./store.js";

/**
 * Signed webhook notifications (contract 4.2 B, 5.2, 6.1): one POST to the account's one URL
 * on every status change of an order, and when a PEN order gets a payment reference.
 *
 * Deliveries of one order go out one at a time, oldest first, each retried with exponential
 * backoff until a 200 or the last attempt, so the app sees the order's changes in the order
 * they happened. Tests break that on purpose with the shapes below (late, out of order,
 * duplicate, bad signature...), to prove the app copes with what a real sender may do.
 */

export const SIGNATURE_HEADER = "x-pay-content-token";
export const WEBHOOK_EVENT = "payment.status_changed";

/** How a control call wants the notification it causes to be delivered. */
export const DELIVERY_SHAPES = ["normal", "drop", "bad_signature", "unsigned", "duplicate", "late"] as const;
export type DeliveryShape = (typeof DELIVERY_SHAPES)[number];
export interface ShapeOptions {
  delivery: DeliveryShape;
  /** Real seconds a `late` delivery waits before its first attempt. */
  delaySeconds?: number;
}
export const DEFAULT_LATE_SECONDS = 1;
const NORMAL: ShapeOptions = { delivery: "normal" };

/** The start of a receiver's reply kept in an attempt: enough to read its error. */
const RESPONSE_EXCERPT_CHARS = 2048;

/** The header value for `body`: HMAC-SHA256 keyed with the UTF-8 bytes of `key`. */
export function signatureOf(body: string, key: string, encoding: "hex" | "base64", prefix: boolean): string {
  const digest = createHmac("sha256", key).update(body, "utf8").digest(encoding);
  return prefix ? `sha256=${digest}` : digest;
}

/** The raw body of a notification. Only `data.paymentStatus` and the order's id are contract (2.5). */
export function notificationBody(deliveryId: string, sentAt: string, order: Order, paymentStatus: PaymentStatus) {
  return JSON.stringify({
    event: WEBHOOK_EVENT,
    deliveryId,
    sentAt,
    data: {
      externalTransactionId: order.externalTransactionId,
      referenceNumber: order.referenceNumber,
      paymentStatus,
      amount: order.amount,
      paymentMethod: order.paymentMethod,
      paymentReference: order.paymentReference,
      entity: order.entityNumber === undefined ? undefined : { number: order.entityNumber },
      updatedAt: order.updatedAt,
    },
  });
}

const newDeliveryId = () => `dlv_${randomBytes(8).toString("hex")}`;

type Signing = "valid" | "wrong" | "none";

export interface WebhookDeps {
  store: SandboxStore;
  clock: SandboxClock;
  /** The live settings object: a change applies to the next delivery or attempt. */
  settings: SandboxSettings;
  webhookSecret: string;
  log: (line: string) => void;
}

export class WebhookDispatcher {
  readonly deliveries = new DeliveryLog();
  /** Per order, its deliveries still to be sent, the first one being sent now. */
  private readonly queues = new Map<string, Delivery[]>();
  /** Aborted by reset and close: cancels every timer and request of the deliveries in flight. */
  private controller = newController();
  /** While shaped() runs: how the notifications of the change are to be delivered, and which were created. */
  private shaping: { options: ShapeOptions; created: Delivery[] } | undefined;

  constructor(private readonly deps: WebhookDeps) {
    deps.store.subscribe((change) => this.onStoreChange(change));
  }

  /**
   * Runs `change` (which changes the store) so that the notifications it causes take the
   * shape of `options`; returns its result and the deliveries it created.
   */
  shaped<T>(options: ShapeOptions, change: () => T): { result: T; deliveries: Delivery[] } {
    const previous = this.shaping;
    const shaping = { options, created: [] as Delivery[] };
    this.shaping = shaping;
    try {
      return { result: change(), deliveries: shaping.created };
    } finally {
      this.shaping = previous;
    }
  }

  /** A notification saying `paymentStatus` for an order that does not change: replays, stale news. */
  deliverStatus(order: Order, paymentStatus: PaymentStatus, options: ShapeOptions): Delivery[] {
    return this.notify(order, paymentStatus, options, "out_of_order");
  }

  /** The same raw body again, signed with the current settings, to the current URL, in the order's FIFO. */
  redeliver(original: Delivery): Delivery {
    const { externalTransactionId, paymentStatus, body } = original;
    const delivery = this.record({ externalTransactionId, paymentStatus, kind: "redelivery", body }, "valid");
    this.route(delivery, "fifo");
    return delivery;
  }

  /** Forgets every delivery and cancels those in flight. */
  reset(): void {
    this.controller.abort();
    this.controller = newController();
    this.queues.clear();
    this.deliveries.clear();
  }

  /** Cancels every timer and request, and answers every waiter: nothing stays open. */
  close(): void {
    this.controller.abort();
    this.queues.clear();
    this.deliveries.close();
  }

  private onStoreChange(change: StoreChange): void {
    if (change.kind !== "order_status_changed" && change.kind !== "payment_reference_set") return;
    const created = this.notify(change.order, change.order.status, this.shaping?.options ?? NORMAL, "normal");
    this.shaping?.created.push(...created);
  }

  private notify(
    order: Order,
    paymentStatus: PaymentStatus,
    options: ShapeOptions,
    kind: "normal" | "out_of_order",
  ): Delivery[] {
    const id = newDeliveryId();
    const fields = {
      id,
      externalTransactionId: order.externalTransactionId,
      paymentStatus,
      kind,
      body: notificationBody(id, this.deps.clock.iso(), order, paymentStatus),
    };
    // Out-of-order notifications are meant to overtake the order's queue, not wait in it.
    const how = kind === "normal" ? "fifo" : "direct";
    switch (options.delivery) {
      case "normal": {
        const delivery = this.record(fields, "valid");
        this.route(delivery, how);
        return [delivery];
      }
      case "drop":
        return [this.record(fields, "valid", "dropped on request (delivery: drop)")];
      case "bad_signature":
      case "unsigned": {
        const delivery = this.record(
          { ...fields, kind: options.delivery },
          options.delivery === "unsigned" ? "none" : "wrong",
        );
        this.route(delivery, how);
        return [delivery];
      }
      case "duplicate": {
        // The same bytes twice: the second has its own log id but repeats the first's deliveryId.
        const first = this.record(fields, "valid");
        const second = this.record({ ...fields, id: newDeliveryId(), kind: "duplicate" }, "valid");
        this.route(first, how);
        this.route(second, how);
        return [first, second];
      }
      case "late": {
        const delivery = this.record({ ...fields, kind: "late" }, "valid");
        this.route(delivery, { afterMs: (options.delaySeconds ?? DEFAULT_LATE_SECONDS) * 1000 });
        return [delivery];
      }
    }
  }

  /** Adds a delivery to the log: scheduled, or dropped (for `dropReason`, or when no URL is set). */
  private record(
    fields: {
      id?: string;
      externalTransactionId: string;
      paymentStatus: PaymentStatus;
      kind: DeliveryKind;
      body: string;
    },
    signing: Signing,
    dropReason?: string,
  ): Delivery {
    const url = this.deps.settings.webhookUrl;
    const reason = dropReason ?? (url === null ? "no webhook URL" : undefined);
    const delivery: Delivery = {
      id: fields.id ?? newDeliveryId(),
      externalTransactionId: fields.externalTransactionId,
      paymentStatus: fields.paymentStatus,
      kind: fields.kind,
      state: reason === undefined ? "scheduled" : "dropped",
      url,
      body: fields.body,
      signature: this.sign(fields.body, signing),
      attempts: [],
      createdAt: this.deps.clock.iso(),
      reason,
    };
    this.deliveries.add(delivery);
    if (reason !== undefined) this.deps.log(`webhook ${describe(delivery)} dropped: ${reason}`);
    return delivery;
  }

  private sign(body: string, signing: Signing): string | undefined {
    if (signing === "none") return undefined;
    // A well-formed header computed with a key that is not the webhook secret.
    const key = signing === "valid" ? this.deps.webhookSecret : randomBytes(32).toString("hex");
    return signatureOf(body, key, this.deps.settings.signatureEncoding, this.deps.settings.signaturePrefix);
  }

  private route(delivery: Delivery, how: "fifo" | "direct" | { afterMs: number }): void {
    if (delivery.state !== "scheduled") return;
    const { signal } = this.controller;
    if (how === "direct") {
      void this.send(delivery, signal);
    } else if (how === "fifo") {
      let queue = this.queues.get(delivery.externalTransactionId);
      if (!queue) this.queues.set(delivery.externalTransactionId, (queue = []));
      queue.push(delivery);
      if (queue.length === 1) void this.drain(delivery.externalTransactionId, queue, signal);
    } else {
      void sleep(how.afterMs, signal).then(() => (signal.aborted ? undefined : this.send(delivery, signal)));
    }
  }

  /** Sends an order's queued deliveries one after another; a reset or close stops it. */
  private async drain(externalTransactionId: string, queue: Delivery[], signal: AbortSignal): Promise<void> {
    for (let head = queue[0]; head; head = queue[0]) {
      await this.send(head, signal);
      if (signal.aborted) return;
      queue.shift();
    }
    this.queues.delete(externalTransactionId);
  }

  /** Attempts until a 200 or the last attempt; bad_signature and unsigned deliveries get one attempt. */
  private async send(delivery: Delivery, signal: AbortSignal): Promise<void> {
    const { settings, clock } = this.deps;
    // A receiver is expected to refuse these (401): retrying would only repeat the refusal.
    const once = delivery.kind === "bad_signature" || delivery.kind === "unsigned";
    delivery.state = "pending";
    this.deliveries.changed();
    for (let attempt = 1; ; attempt++) {
      const at = clock.iso();
      const outcome = await post(delivery, settings.webhookTimeoutMs, signal);
      if (signal.aborted) return;
      delivery.attempts.push({ at, ...outcome });
      if (outcome.status === 200) {
        delivery.state = "delivered";
        break;
      }
      if (once || attempt >= settings.webhookMaxAttempts) {
        delivery.state = "failed";
        delivery.reason = once ? `${delivery.kind} deliveries are attempted once` : `no 200 in ${attempt} attempts`;
        break;
      }
      this.deliveries.changed();
      await sleep(settings.webhookRetryBaseMs * 2 ** (attempt - 1), signal);
      if (signal.aborted) return;
    }
    const last = delivery.attempts.at(-1);
    this.deps.log(
      `webhook ${describe(delivery)} ${delivery.state} (${last?.status ?? last?.error}, attempt ${delivery.attempts.length})`,
    );
    this.deliveries.changed();
  }
}

/** For the human log: never the body, URL query or signature. */
const describe = (delivery: Delivery) => `${delivery.id} ${delivery.paymentStatus} ${delivery.kind}`;

function newController(): AbortController {
  const controller = new AbortController();
  // Every delivery in flight listens to it; there may be many at once.
  setMaxListeners(0, controller.signal);
  return controller;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * One POST of the delivery's raw body. node:http without keep-alive (`agent: false`), so
 * nothing stays open once it is answered, timed out or cancelled.
 */
function post(delivery: Delivery, timeoutMs: number, signal: AbortSignal): Promise<Omit<DeliveryAttempt, "at">> {
  const started = performance.now();
  return new Promise((resolve) => {
    if (signal.aborted || delivery.url === null) return resolve({ error: "cancelled", durationMs: 0 });
    let request: ClientRequest | undefined;
    let settled = false;
    const finish = (outcome: { status?: number; error?: string; responseBody?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      request?.destroy();
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
    };
    const onAbort = () => finish({ error: "cancelled" });
    const timer = setTimeout(() => finish({ error: `no reply within ${timeoutMs} ms` }), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });

    const headers: Record<string, string | number> = {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(delivery.body),
      "User-Agent": "pay-sandbox-webhooks/1",
    };
    if (delivery.signature !== undefined) headers[SIGNATURE_HEADER] = delivery.signature;
    const target = new URL(delivery.url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    request = send(target, { method: "POST", headers, agent: false });
    request.on("error", (error: NodeJS.ErrnoException) => finish({ error: error.message || error.code }));
    request.on("response", (response: IncomingMessage) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (text.length < RESPONSE_EXCERPT_CHARS) text += chunk.slice(0, RESPONSE_EXCERPT_CHARS - text.length);
      });
      response.on("end", () => finish({ status: response.statusCode, responseBody: text || undefined }));
      response.on("error", (error) => finish({ status: response.statusCode, error: error.message }));
    });
    request.end(delivery.body);
  });
}
