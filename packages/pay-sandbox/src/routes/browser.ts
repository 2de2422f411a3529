import { z } from "zod";
import { readAsset } from "../assets.js";
import { applicationUUIDOf, type SandboxContext } from "../context.js";
import {
  css,
  describeIssues,
  html,
  javascript,
  json,
  parseJson,
  requireMediaType,
  SandboxError,
  type Reply,
  type SandboxRequest,
} from "../http.js";
import { DEFAULT_REFERENCE_LIFESPAN_MINUTES, type DriveResult } from "../orders.js";
import type { RouteGroup } from "../router.js";
import { InvalidTransitionError, PAYMENT_METHODS, type Order, type PaymentMethod } from "../store.js";
import {
  CHECKOUT_SCRIPT_PATH,
  checkoutPage,
  dashboardPage,
  DASHBOARD_PATH,
  DASHBOARD_SCRIPT_PATH,
  errorPage,
  loadingPage,
  OUTCOME_MESSAGE_TYPE,
  PAGE_HEADERS,
  pageLangOf,
  STYLESHEET_PATH,
} from "../browser/pages.js";

/**
 * The browser side of the service (contract 4.3, 2.8 to 2.10, 6.2): the SDK script, the
 * hosted checkout popup and the endpoints its buttons call, plus the sandbox's dashboard.
 * A shopper's browser calls these, not the shop's backend, so they are not service-API calls:
 * not in the request log, never faulted. Paying in the popup drives the order through the
 * OrderDriver, so its signed webhook goes out exactly as for the control API.
 */

export const SDK_PATH = "/sdks/v1/pay.js";
export const CHECKOUT_PREFIX = "/checkout";

/** Paths a browser asks for; one no route knows is still not a call to the service's API. */
export const isBrowserPath = (path: string) => path.startsWith(`${CHECKOUT_PREFIX}/`) || path.startsWith("/sdks/");

/** Short: a shop picks up a changed sandbox SDK within a minute. */
const ASSET_CACHE = "public, max-age=60";

export function browserRoutes(ctx: SandboxContext): RouteGroup {
  // Read once at start: a request never waits on the disk.
  const sdk = readAsset("pay.js");
  const checkoutScript = readAsset("checkout.js");
  const dashboardScript = readAsset("dashboard.js");
  const stylesheet = readAsset("pages.css");
  const cached = { "Cache-Control": ASSET_CACHE };

  return {
    serviceApi: false,
    routes: [
      {
        method: "GET",
        pattern: SDK_PATH,
        // Any shop origin loads it; CORP lets a page with Cross-Origin-Embedder-Policy do so too.
        handle: () =>
          javascript(sdk, {
            ...cached,
            "Access-Control-Allow-Origin": "*",
            "Cross-Origin-Resource-Policy": "cross-origin",
          }),
      },
      { method: "GET", pattern: CHECKOUT_SCRIPT_PATH, handle: () => javascript(checkoutScript, cached) },
      { method: "GET", pattern: STYLESHEET_PATH, handle: () => css(stylesheet, cached) },
      // Before /checkout/:referenceNumber, which would otherwise take "loading" for a reference.
      { method: "GET", pattern: `${CHECKOUT_PREFIX}/loading`, handle: (request) => loading(request) },
      { method: "GET", pattern: `${CHECKOUT_PREFIX}/:referenceNumber`, handle: (request) => checkout(ctx, request) },
      { method: "POST", pattern: `${CHECKOUT_PREFIX}/:referenceNumber/pay`, handle: (request) => pay(ctx, request) },
      {
        method: "POST",
        pattern: `${CHECKOUT_PREFIX}/:referenceNumber/cancel`,
        handle: (request) => cancel(ctx, request),
      },
      // Browsers ask for it on every page; without it each visit would log a 404 as a service-API call.
      {
        method: "GET",
        pattern: "/favicon.ico",
        handle: () => ({ status: 204, body: "", contentType: "image/x-icon" }),
      },
      // The server lets these through only with a loopback Host, and the page only with its token (control-access.ts).
      { method: "GET", pattern: DASHBOARD_PATH, handle: () => page(200, dashboardPage()) },
      { method: "GET", pattern: DASHBOARD_SCRIPT_PATH, handle: () => javascript(dashboardScript, cached) },
    ],
  };
}

const page = (status: number, body: string) => html(status, body, { ...PAGE_HEADERS });

// GET /checkout/loading --------------------------------------------------------------------

function loading(request: SandboxRequest): Reply {
  const query = z.strictObject({ lang: z.string().max(35).optional() }).safeParse(Object.fromEntries(request.query));
  if (!query.success) return page(400, errorPage("pt", describeIssues(query.error, "request")));
  return page(200, loadingPage(pageLangOf(query.data.lang)));
}

// GET /checkout/:referenceNumber -----------------------------------------------------------

/** A query parameter that holds JSON (the SDK sends objects that way), parsed and then checked by `schema`. */
const jsonParam = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: "custom", message: "is not valid JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** Minutes on the sandbox clock, as the control API's lifeSpanMinutes (the contract shows no unit). */
const lifeSpanSchema = z
  .number()
  .positive()
  .max(366 * 24 * 60);

const paymentConfigSchema = z.looseObject({
  theme: z.string().optional(),
  // Codes the sandbox does not know are not offered; the SDK refuses them before this.
  allowedPaymentMethods: z.array(z.string()).optional(),
  showUIOfProcessingInfo: z.boolean().optional(),
  referencePaymentLifeSpan: lifeSpanSchema.optional(),
});

const referenceItemSchema = z.strictObject({
  referenceNumber: z.string(),
  referenceDescription: z.string().max(200),
  referenceAmount: z.number().finite(),
  referenceQuantity: z.number().finite(),
  referenceTotalQuantity: z.number().finite(),
});

const openerOriginSchema = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
    } catch {
      return false;
    }
  },
  { message: "must be an origin such as https://shop.example (scheme, host and port only)" },
);

const checkoutQuery = z.strictObject({
  key: z
    .string()
    .regex(/^pk_(?:test|live)_.+$/, { message: "must be a publishable key (pk_test_… or pk_live_…)" })
    .refine((key) => !key.startsWith("pk_live_"), { message: "the sandbox refuses pk_live_ keys (use pk_test_…)" }),
  lang: z.string().max(35).optional(),
  paymentConfig: jsonParam(paymentConfigSchema).optional(),
  customer: jsonParam(z.strictObject({ name: z.string().max(200), phone: z.string().max(50) })).optional(),
  references: jsonParam(z.array(referenceItemSchema).max(100)).optional(),
  origin: openerOriginSchema.optional(),
});

function checkout(ctx: SandboxContext, request: SandboxRequest): Reply {
  const raw = Object.fromEntries(request.query);
  const lang = pageLangOf(typeof raw.lang === "string" ? raw.lang : undefined);
  const parsed = checkoutQuery.safeParse(raw);
  if (!parsed.success) return page(400, errorPage(lang, describeIssues(parsed.error, "request")));
  const query = parsed.data;

  const referenceNumber = request.params.referenceNumber ?? "";
  const order = ctx.store.findOrderByReference(referenceNumber);
  if (!order) return page(404, errorPage(lang, `no payment order with referenceNumber ${referenceNumber}`));
  if (order.applicationUUID !== applicationUUIDOf(query.key)) {
    return page(403, errorPage(lang, "the publishable key is not the key of the application that created this order"));
  }
  if (order.status !== "PEN") {
    return page(409, errorPage(lang, `the order is already ${order.status}: there is nothing left to pay`));
  }

  const paymentConfig = query.paymentConfig ?? {};
  return page(
    200,
    checkoutPage({
      lang,
      theme: paymentConfig.theme === "dark" ? "dark" : "light",
      testMode: query.key.startsWith("pk_test_"),
      referenceNumber: order.referenceNumber,
      name: order.name,
      amount: order.amount,
      methods: offeredMethods(paymentConfig.allowedPaymentMethods),
      showProcessing: paymentConfig.showUIOfProcessingInfo ?? false,
      referencePaymentLifeSpan: paymentConfig.referencePaymentLifeSpan,
      customer: query.customer,
      references: query.references,
      openerOrigin: query.origin,
    }),
  );
}

/** The allowed methods the sandbox knows, in the contract's order; FPSOLPG always (contract 1). */
export function offeredMethods(allowed: readonly string[] | undefined): PaymentMethod[] {
  return PAYMENT_METHODS.filter((method) => method === "FPSOLPG" || (allowed ?? PAYMENT_METHODS).includes(method));
}

// POST /checkout/:referenceNumber/pay and /cancel ------------------------------------------

const paySchema = z.strictObject({
  method: z.enum(PAYMENT_METHODS),
  referencePaymentLifeSpan: lifeSpanSchema.optional(),
});

function pay(ctx: SandboxContext, request: SandboxRequest): Reply {
  const { method, referencePaymentLifeSpan } = checkoutBody(request, paySchema);
  const order = orderOf(ctx, request);
  const normal = { delivery: "normal" } as const;
  return outcome(() => {
    switch (method) {
      case "FPMCXEXPRSS":
        return ctx.orders.approve(order, normal);
      case "FPSOLPGEXT":
        return ctx.orders.pending(
          order,
          { lifeSpanMinutes: referencePaymentLifeSpan ?? DEFAULT_REFERENCE_LIFESPAN_MINUTES },
          normal,
        );
      case "FPSOLPG":
        return ctx.orders.payDirect(order, normal);
    }
  });
}

function cancel(ctx: SandboxContext, request: SandboxRequest): Reply {
  checkoutBody(request, z.strictObject({}));
  const order = orderOf(ctx, request);
  return outcome(() => ctx.orders.cancel(order, { delivery: "normal" }));
}

function checkoutBody<T>(request: SandboxRequest, schema: z.ZodType<T>): T {
  // JSON only: a form on another site cannot post it without the browser asking first (CORS).
  requireMediaType(request, "application/json");
  const parsed = schema.safeParse(parseJson(request.body));
  if (parsed.success) return parsed.data;
  throw new SandboxError(400, "invalid_request", describeIssues(parsed.error, "request"));
}

function orderOf(ctx: SandboxContext, request: SandboxRequest): Order {
  const referenceNumber = request.params.referenceNumber ?? "";
  const order = ctx.store.findOrderByReference(referenceNumber);
  if (!order) throw new SandboxError(404, "not_found", `no payment order with referenceNumber ${referenceNumber}`);
  return order;
}

/** `{ message }`: what the popup posts to the shop page; 409 when the order is already final. */
function outcome(change: () => DriveResult): Reply {
  try {
    return json(200, { message: outcomeMessage(change().order) });
  } catch (error) {
    if (error instanceof InvalidTransitionError) throw new SandboxError(409, "invalid_transition", error.message);
    throw error;
  }
}

export type OutcomeMessage = ReturnType<typeof outcomeMessage>;

/**
 * The message the popup posts to its opener after a change of the order. `payment` carries
 * the paths of contract 2.8 (`orderId` is the shop's externalTransactionId) and a few more.
 */
export function outcomeMessage(order: Order) {
  const base = { type: OUTCOME_MESSAGE_TYPE, referenceNumber: order.referenceNumber };
  const payment = {
    orderId: order.externalTransactionId,
    referenceNumber: order.referenceNumber,
    paymentMethod: order.paymentMethod,
    amount: order.amount,
    status: order.status,
  };
  if (order.status === "CAN") return { ...base, outcome: "cancelled" as const };
  if (order.status === "CON") return { ...base, outcome: "approved" as const, payment };
  return {
    ...base,
    outcome: "pending" as const,
    payment: {
      ...payment,
      data: {
        paymentReference: order.paymentReference,
        entity: { number: order.entityNumber },
        expiresAt: order.referenceExpiresAt,
      },
    },
  };
}
