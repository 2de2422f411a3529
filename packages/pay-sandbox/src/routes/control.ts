import { z } from "zod";
import type { SandboxContext } from "../context.js";
import { DELIVERY_KINDS, DELIVERY_STATES, type Delivery, type DeliveryFilter } from "../delivery-log.js";
import { faultSchema } from "../faults.js";
import { describeIssues, errorReply, json, parseJson, SandboxError, type Reply, type SandboxRequest } from "../http.js";
import type { DriveResult } from "../orders.js";
import type { Route, RouteGroup } from "../router.js";
import { settingsChangeSchema } from "../settings.js";
import { InvalidTransitionError, PAYMENT_STATUSES, type Order } from "../store.js";
import { DELIVERY_SHAPES, type ShapeOptions } from "../webhooks.js";

/**
 * The sandbox's own API for tests and people: request log, injected faults, settings, token
 * revocation, the clock, the orders and what happens to them, and the webhook deliveries.
 * The server answers none of it without a loopback Host and the run's token (control-access.ts).
 * The credentials are not served: whoever started the sandbox gave them to it.
 */

export const CONTROL_PREFIX = "/__sandbox";

export function controlRoutes(ctx: SandboxContext): RouteGroup {
  const ok = () => json(200, { ok: true });
  const route = (method: Route["method"], path: string, handle: Route["handle"]): Route => ({
    method,
    pattern: `${CONTROL_PREFIX}${path}`,
    handle,
  });

  return {
    serviceApi: false,
    routes: [
      route("GET", "/health", ok),

      route("GET", "/requests", (request) => json(200, { requests: ctx.requestLog.list(requestFilter(request)) })),
      route("DELETE", "/requests", () => {
        ctx.requestLog.clear();
        return ok();
      }),

      route("GET", "/faults", () => json(200, { faults: ctx.faults.list() })),
      route("POST", "/faults", (request) => {
        ctx.faults.add(body(request, faultSchema));
        return json(200, { faults: ctx.faults.list() });
      }),
      route("DELETE", "/faults", () => {
        ctx.faults.clear();
        return ok();
      }),

      route("GET", "/settings", () => json(200, { settings: ctx.settings })),
      route("POST", "/settings", (request) => {
        Object.assign(ctx.settings, body(request, settingsChangeSchema));
        return json(200, { settings: ctx.settings });
      }),

      route("POST", "/tokens/revoke", () => json(200, { revoked: ctx.store.revokeTokens() })),

      route("GET", "/clock", () => clockReply(ctx)),
      route("POST", "/clock", (request) => {
        ctx.clock.advance(body(request, clockSchema).advanceSeconds);
        // References that expired in the jump are cancelled (and notified) before the answer.
        ctx.orders.expireDue();
        return clockReply(ctx);
      }),

      route("GET", "/orders", () => json(200, { orders: ctx.store.listOrders() })),
      route("GET", "/orders/:externalTransactionId", (request) => json(200, { order: knownOrder(ctx, request) })),
      route("POST", "/orders/:externalTransactionId/approve", (request) => {
        const shape = body(request, shapeSchema);
        return drive(() => ctx.orders.approve(knownOrder(ctx, request), shape));
      }),
      route("POST", "/orders/:externalTransactionId/pending", (request) => {
        const { paymentReference, entityNumber, lifeSpanMinutes, ...shape } = body(request, pendingSchema);
        const reference = { paymentReference, entityNumber, lifeSpanMinutes };
        return drive(() => ctx.orders.pending(knownOrder(ctx, request), reference, shape));
      }),
      route("POST", "/orders/:externalTransactionId/confirm", (request) => {
        const shape = body(request, shapeSchema);
        return drive(() => ctx.orders.confirm(knownOrder(ctx, request), shape));
      }),
      route("POST", "/orders/:externalTransactionId/cancel", (request) => {
        const shape = body(request, shapeSchema);
        return drive(() => ctx.orders.cancel(knownOrder(ctx, request), shape));
      }),
      route("POST", "/orders/:externalTransactionId/expire", (request) => {
        const shape = body(request, shapeSchema);
        return drive(() => ctx.orders.expire(knownOrder(ctx, request), shape));
      }),
      route("POST", "/orders/:externalTransactionId/deliver", (request) => {
        const { paymentStatus, ...shape } = body(request, deliverSchema);
        const order = knownOrder(ctx, request);
        return json(200, { order, deliveries: ctx.webhooks.deliverStatus(order, paymentStatus, shape) });
      }),
      route("POST", "/orders/:externalTransactionId/redeliver", (request) => {
        body(request, emptySchema);
        const order = knownOrder(ctx, request);
        const latest = ctx.webhooks.deliveries.latestOf(order.externalTransactionId);
        if (!latest) {
          throw new SandboxError(404, "not_found", `no notification of ${order.externalTransactionId} to redeliver`);
        }
        return json(200, { order, deliveries: [ctx.webhooks.redeliver(latest)] });
      }),

      route("GET", "/deliveries", (request) =>
        json(200, { deliveries: ctx.webhooks.deliveries.list(deliveryFilter(request)) }),
      ),
      route("DELETE", "/deliveries", () => {
        ctx.webhooks.deliveries.clear();
        return ok();
      }),
      // Before /deliveries/:id, which would otherwise take "wait" for an id.
      route("GET", "/deliveries/wait", (request) => waitForDeliveries(ctx, request)),
      route("GET", "/deliveries/:id", (request) => json(200, { delivery: knownDelivery(ctx, request) })),
      route("POST", "/deliveries/:id/redeliver", (request) => {
        body(request, emptySchema);
        return json(200, { delivery: ctx.webhooks.redeliver(knownDelivery(ctx, request)) });
      }),

      route("POST", "/reset", () => {
        resetSandbox(ctx);
        return ok();
      }),
    ],
  };
}

const clockSchema = z.strictObject({
  advanceSeconds: z.number().nonnegative().finite(),
});

/** A control request's JSON body, validated; an empty body counts as `{}`. */
function body<T>(request: SandboxRequest, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(request.body.trim() === "" ? {} : parseJson(request.body));
  if (parsed.success) return parsed.data;
  throw new SandboxError(400, "invalid_request", describeIssues(parsed.error, "body"));
}

function requestFilter(request: SandboxRequest) {
  const since = request.query.get("since");
  if (since !== null && !/^\d+$/.test(since)) {
    throw new SandboxError(400, "invalid_request", "since must be a request seq (a whole number)");
  }
  return { path: request.query.get("path") ?? undefined, since: since === null ? undefined : Number(since) };
}

function clockReply(ctx: SandboxContext): Reply {
  // One reading, so `now` and `iso` name the same millisecond.
  const now = ctx.clock.now();
  return json(200, { now, iso: new Date(now).toISOString(), offsetSeconds: ctx.clock.offsetSeconds });
}

function knownOrder(ctx: SandboxContext, request: SandboxRequest): Order {
  const externalTransactionId = request.params.externalTransactionId ?? "";
  const order = ctx.store.findOrder(externalTransactionId);
  if (!order)
    throw new SandboxError(404, "not_found", `no payment order with externalTransactionId ${externalTransactionId}`);
  return order;
}

/** `{ order, deliveries }` of a change of an order; 409 from a final state. */
function drive(change: () => DriveResult): Reply {
  try {
    return json(200, change());
  } catch (error) {
    if (error instanceof InvalidTransitionError) throw new SandboxError(409, "invalid_transition", error.message);
    throw error;
  }
}

function knownDelivery(ctx: SandboxContext, request: SandboxRequest): Delivery {
  const id = request.params.id ?? "";
  const delivery = ctx.webhooks.deliveries.get(id);
  if (!delivery) throw new SandboxError(404, "not_found", `no delivery ${id}`);
  return delivery;
}

/** How the notification a control call causes is delivered; `delaySeconds` belongs to `late` only. */
const shapeFields = {
  delivery: z.enum(DELIVERY_SHAPES).default("normal"),
  delaySeconds: z.number().positive().max(3600).optional(),
};
const lateOnly = (shape: ShapeOptions) => shape.delaySeconds === undefined || shape.delivery === "late";
const lateOnlyError = { error: "delaySeconds applies to delivery late only", path: ["delaySeconds"] };

const shapeSchema = z.strictObject(shapeFields).refine(lateOnly, lateOnlyError);

const nonBlank = (field: string, max: number) =>
  z
    .string()
    .regex(/\S/, { error: `${field} must not be blank` })
    .max(max, { error: `${field} must be at most ${max} characters` });

const pendingSchema = z
  .strictObject({
    ...shapeFields,
    // Kept as given, spaces included: a reference may be shown grouped ("555 444 333").
    paymentReference: nonBlank("paymentReference", 64).optional(),
    entityNumber: nonBlank("entityNumber", 32).optional(),
    /** Minutes on the sandbox clock (the contract's unit of referencePaymentLifeSpan is not shown). */
    lifeSpanMinutes: z
      .number()
      .positive()
      .max(366 * 24 * 60)
      .optional(),
  })
  .refine(lateOnly, lateOnlyError);

const deliverSchema = z
  .strictObject({ ...shapeFields, paymentStatus: z.enum(PAYMENT_STATUSES) })
  .refine(lateOnly, lateOnlyError);

const emptySchema = z.strictObject({});

const deliveryQuery = z.strictObject({
  id: z.string().min(1).optional(),
  externalTransactionId: z.string().min(1).optional(),
  kind: z.enum(DELIVERY_KINDS).optional(),
  state: z.enum([...DELIVERY_STATES, "settled"]).optional(),
});

const waitQuery = deliveryQuery.extend({
  state: z.enum(["delivered", "failed", "dropped", "settled"]).default("settled"),
  count: z.coerce.number().int().min(1).max(1000).default(1),
  timeoutMs: z.coerce.number().int().min(0).max(120_000).default(10_000),
});

/** The query of a deliveries call, validated: unknown parameters are refused, like unknown fields. */
function query<T>(request: SandboxRequest, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(Object.fromEntries(request.query));
  if (parsed.success) return parsed.data;
  throw new SandboxError(400, "invalid_request", describeIssues(parsed.error, "query"));
}

function deliveryFilter(request: SandboxRequest): DeliveryFilter {
  return query(request, deliveryQuery);
}

/**
 * Long poll: answers as soon as `count` deliveries matching the filter reach `state`, so a
 * test waits exactly as long as the delivery takes and never sleeps. 408 on timeout, with the
 * deliveries matching all but the state, to show where they are stuck.
 */
async function waitForDeliveries(ctx: SandboxContext, request: SandboxRequest): Promise<Reply> {
  const { count, timeoutMs, ...filter } = query(request, waitQuery);
  const outcome = await ctx.webhooks.deliveries.waitFor(filter, count, timeoutMs);
  if (outcome.kind === "reached") return json(200, { deliveries: outcome.deliveries });
  if (outcome.kind === "closed") {
    // The sandbox is stopping: answer now and let the connection go.
    return errorReply(503, "closing", "the sandbox is stopping", { Connection: "close" });
  }
  const reply = errorReply(
    408,
    "timeout",
    `fewer than ${count} matching deliveries were ${filter.state} after ${timeoutMs} ms`,
  );
  return { ...reply, body: { ...(reply.body as object), deliveries: outcome.deliveries } };
}

/** Back to how the sandbox started: no orders, tokens, logged requests, faults or deliveries; clock and settings restored. */
function resetSandbox(ctx: SandboxContext): void {
  ctx.orders.reset();
  ctx.webhooks.reset();
  ctx.store.reset();
  ctx.requestLog.clear();
  ctx.faults.clear();
  ctx.clock.reset();
  Object.assign(ctx.settings, ctx.initialSettings);
}
