import { z } from "zod";
import type { SandboxContext } from "../context";
import { faultSchema } from "../faults";
import { json, parseJson, SandboxError, type Reply, type SandboxRequest } from "../http";
import type { Route, RouteGroup } from "../router";
import { InvalidTransitionError, type Order, type PaymentStatus } from "../store";

/**
 * The sandbox's own API for tests and people: request log, injected faults, settings, token
 * revocation, the clock, and the orders. No authentication: the sandbox listens on
 * 127.0.0.1 and holds test data only.
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
        Object.assign(ctx.settings, body(request, settingsSchema));
        return json(200, { settings: ctx.settings });
      }),

      route("POST", "/tokens/revoke", () => json(200, { revoked: ctx.store.revokeTokens() })),

      route("GET", "/clock", () => clockReply(ctx)),
      route("POST", "/clock", (request) => {
        ctx.clock.advance(body(request, clockSchema).advanceSeconds);
        return clockReply(ctx);
      }),

      route("GET", "/orders", () => json(200, { orders: ctx.store.listOrders() })),
      route("GET", "/orders/:externalTransactionId", (request) => json(200, { order: knownOrder(ctx, request) })),
      route("POST", "/orders/:externalTransactionId/confirm", (request) => changeStatus(ctx, request, "CON")),
      route("POST", "/orders/:externalTransactionId/cancel", (request) => changeStatus(ctx, request, "CAN")),

      route("POST", "/reset", () => {
        resetSandbox(ctx);
        return ok();
      }),
    ],
  };
}

const settingsSchema = z.strictObject({
  tokenLifetimeSeconds: z
    .int()
    .min(1)
    .max(365 * 24 * 3600)
    .optional(),
});

const clockSchema = z.strictObject({
  advanceSeconds: z.number().nonnegative().finite(),
});

/** A control request's JSON body, validated; an empty body counts as `{}`. */
function body<T>(request: SandboxRequest, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(request.body.trim() === "" ? {} : parseJson(request.body));
  if (parsed.success) return parsed.data;
  const reasons = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
  throw new SandboxError(400, "invalid_request", reasons.join("; "));
}

function requestFilter(request: SandboxRequest) {
  const since = request.query.get("since");
  if (since !== null && !/^\d+$/.test(since)) {
    throw new SandboxError(400, "invalid_request", "since must be a request seq (a whole number)");
  }
  return { path: request.query.get("path") ?? undefined, since: since === null ? undefined : Number(since) };
}

function clockReply(ctx: SandboxContext): Reply {
  return json(200, { now: ctx.clock.now(), iso: ctx.clock.iso(), offsetSeconds: ctx.clock.offsetSeconds });
}

function knownOrder(ctx: SandboxContext, request: SandboxRequest): Order {
  const externalTransactionId = request.params.externalTransactionId ?? "";
  const order = ctx.store.findOrder(externalTransactionId);
  if (!order)
    throw new SandboxError(404, "not_found", `no payment order with externalTransactionId ${externalTransactionId}`);
  return order;
}

function changeStatus(ctx: SandboxContext, request: SandboxRequest, to: PaymentStatus): Reply {
  const order = knownOrder(ctx, request);
  try {
    return json(200, { order: ctx.store.changeStatus(order, to) });
  } catch (error) {
    if (error instanceof InvalidTransitionError) throw new SandboxError(409, "invalid_transition", error.message);
    throw error;
  }
}

/** Back to how the sandbox started: no orders, tokens, logged requests or faults; clock and settings restored. */
function resetSandbox(ctx: SandboxContext): void {
  ctx.store.reset();
  ctx.requestLog.clear();
  ctx.faults.clear();
  ctx.clock.reset();
  Object.assign(ctx.settings, ctx.initialSettings);
}
