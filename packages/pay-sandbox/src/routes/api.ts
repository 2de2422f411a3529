import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { SandboxContext } from "../context.js";
import {
  headerValue,
  json,
  parseJson,
  requireMediaType,
  SandboxError,
  type Reply,
  type SandboxRequest,
} from "../http.js";
import type { RouteGroup } from "../router.js";
import type { Order } from "../store.js";

/**
 * The service API (contract 4.1 and 5.1), strict on purpose: wherever a client departs from
 * the contract it gets a 4xx naming the header or field, so the app's tests catch the app's
 * mistakes instead of a lenient stand-in hiding them.
 */

export function serviceApiRoutes(ctx: SandboxContext): RouteGroup {
  return {
    serviceApi: true,
    routes: [
      { method: "POST", pattern: "/token", handle: (request) => issueToken(ctx, request) },
      {
        method: "POST",
        pattern: "/paypartner/createPaymentOrder",
        handle: (request) => createPaymentOrder(ctx, request),
      },
      {
        method: "GET",
        pattern: "/paypartner/paymentByExternalTransaction",
        handle: (request) => paymentByExternalTransaction(ctx, request),
      },
    ],
  };
}

// POST /token ---------------------------------------------------------------------------

function issueToken(ctx: SandboxContext, request: SandboxRequest): Reply {
  requireClientCredentials(ctx, request);
  requireMediaType(request, "application/x-www-form-urlencoded");
  const form = new URLSearchParams(request.body);
  if (form.get("grant_type") !== "client_credentials") {
    throw new SandboxError(400, "unsupported_grant_type", "grant_type must be client_credentials");
  }
  const validityPeriod = form.get("validity_period") ?? "";
  if (!/^[1-9]\d{0,8}$/.test(validityPeriod)) {
    throw new SandboxError(
      400,
      "invalid_request",
      "validity_period must be a positive whole number of seconds, such as 3600",
    );
  }
  const expiresIn = Math.min(Number(validityPeriod), ctx.settings.tokenLifetimeSeconds);
  const accessToken = ctx.store.issueToken(expiresIn);
  return json(
    200,
    { access_token: accessToken, token_type: "Bearer", expires_in: expiresIn },
    { "Cache-Control": "no-store" },
  );
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function requireClientCredentials(ctx: SandboxContext, request: SandboxRequest): void {
  const refuse = (message: string) =>
    new SandboxError(401, "invalid_client", message, { "WWW-Authenticate": 'Basic realm="pay sandbox"' });
  const encoded = /^Basic +(\S+)$/i.exec(headerValue(request.headers, "authorization") ?? "")?.[1];
  const decoded = encoded && BASE64.test(encoded) ? Buffer.from(encoded, "base64").toString("utf8") : undefined;
  const colon = decoded?.indexOf(":") ?? -1;
  if (decoded === undefined || colon < 0) {
    throw refuse("Authorization must be Basic followed by base64 of CLIENT_ID:CLIENT_SECRET");
  }
  // Both comparisons always run, so the answer time does not tell which part was wrong.
  const idMatches = sameSecret(decoded.slice(0, colon), ctx.credentials.clientId);
  const secretMatches = sameSecret(decoded.slice(colon + 1), ctx.credentials.clientSecret);
  if (!(idMatches && secretMatches)) throw refuse("unknown client id or wrong client secret");
}

/** Constant-time equality of two strings of any lengths (compared as digests). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

// Partner endpoints: bearer token and Accept-Language -----------------------------------------

function requirePartnerHeaders(ctx: SandboxContext, request: SandboxRequest): void {
  const refuse = (message: string) =>
    new SandboxError(401, "invalid_token", message, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
  const token = /^Bearer +(\S+)$/i.exec(headerValue(request.headers, "authorization") ?? "")?.[1];
  if (!token) throw refuse("Authorization must be Bearer followed by an access token from POST /token");
  const check = ctx.store.checkToken(token);
  if (check === "expired") throw refuse("the access token has expired");
  if (check === "unknown") throw refuse("the access token is unknown or was revoked");

  const language = headerValue(request.headers, "accept-language")?.trim() ?? "";
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(language)) {
    throw new SandboxError(400, "invalid_request", "Accept-Language must be one language code, such as pt");
  }
}

function requireApplication(ctx: SandboxContext, applicationUUID: string): void {
  if (applicationUUID !== ctx.applicationUUID) {
    throw new SandboxError(
      400,
      "application_mismatch",
      "applicationUUID must be the publishable key without its pk_test_/pk_live_ prefix",
    );
  }
}

// POST /paypartner/createPaymentOrder -----------------------------------------------------------

/** The message of a wrong or missing value, naming the field. */
const typeError = (field: string, expected: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} must be ${expected}`;

const nonEmptyString = (field: string) =>
  z.string({ error: typeError(field, "a string") }).regex(/\S/, { error: `${field} must not be empty` });

const optionalString = (field: string) => z.string({ error: `${field} must be a string when present` }).optional();

/** Contract 2.2. `image` and `additionalInfo` are optional; every other field is required. */
const createOrderBody = z.strictObject({
  externalTransactionId: nonEmptyString("externalTransactionId").max(128, {
    error: "externalTransactionId must be at most 128 characters",
  }),
  clientId: nonEmptyString("clientId"),
  applicationUUID: z.string({ error: typeError("applicationUUID", "a string") }),
  name: nonEmptyString("name"),
  image: optionalString("image"),
  amount: z
    .int({ error: typeError("amount", "a JSON integer of whole AOA (not a string, no decimals)") })
    .positive({ error: "amount must be greater than 0" }),
  quantity: z
    .int({ error: typeError("quantity", "a JSON integer (not a string)") })
    .min(1, { error: "quantity must be at least 1" }),
  additionalInfo: optionalString("additionalInfo"),
});

function createPaymentOrder(ctx: SandboxContext, request: SandboxRequest): Reply {
  requirePartnerHeaders(ctx, request);
  requireMediaType(request, "application/json");
  const fields = parseCreateOrderBody(parseJson(request.body));
  requireApplication(ctx, fields.applicationUUID);

  // externalTransactionId is the idempotency key: a retry gets the order it already created.
  const existing = ctx.store.findOrder(fields.externalTransactionId);
  if (existing && existing.amount !== fields.amount) {
    throw new SandboxError(
      409,
      "conflict",
      `externalTransactionId ${fields.externalTransactionId} already names an order of amount ${existing.amount}`,
    );
  }
  const order = existing ?? ctx.store.createOrder(fields);
  return json(200, {
    data: {
      referenceNumber: order.referenceNumber,
      externalTransactionId: order.externalTransactionId,
      amount: order.amount,
      status: order.status,
    },
  });
}

function parseCreateOrderBody(body: unknown): z.infer<typeof createOrderBody> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new SandboxError(400, "invalid_request", "the body must be a JSON object with the fields of a payment order");
  }
  const parsed = createOrderBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const unknown = parsed.error.issues.flatMap((issue) => (issue.code === "unrecognized_keys" ? issue.keys : []));
  if (unknown.length > 0) {
    throw new SandboxError(
      400,
      "unknown_field",
      `unknown field ${unknown.map((key) => JSON.stringify(key)).join(", ")}`,
    );
  }
  throw new SandboxError(400, "invalid_field", parsed.error.issues.map((issue) => issue.message).join("; "));
}

// GET /paypartner/paymentByExternalTransaction ---------------------------------------------

function paymentByExternalTransaction(ctx: SandboxContext, request: SandboxRequest): Reply {
  requirePartnerHeaders(ctx, request);
  const externalTransactionId = requiredQuery(request, "externalTransactionId");
  requireApplication(ctx, requiredQuery(request, "applicationUUID"));
  const order = ctx.store.findOrder(externalTransactionId);
  if (!order)
    throw new SandboxError(404, "not_found", `no payment order with externalTransactionId ${externalTransactionId}`);
  return json(200, { data: paymentStatusOf(order) });
}

function requiredQuery(request: SandboxRequest, name: string): string {
  const value = request.query.get(name);
  if (!value) throw new SandboxError(400, "invalid_request", `the query parameter ${name} is required`);
  return value;
}

/** The same order fields, in the same places, as the webhook's `data` (webhooks.ts). */
function paymentStatusOf(order: Order) {
  return {
    externalTransactionId: order.externalTransactionId,
    referenceNumber: order.referenceNumber,
    paymentStatus: order.status,
    amount: order.amount,
    paymentMethod: order.paymentMethod,
    paymentReference: order.paymentReference,
    entity: order.entityNumber === undefined ? undefined : { number: order.entityNumber },
    updatedAt: order.updatedAt,
  };
}
