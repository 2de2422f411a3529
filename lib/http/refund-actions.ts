import "server-only";
import type { NextRequest } from "next/server";
import type { Database } from "../db/client";
import { orderPagePath } from "../orders/order-flash";
import { z } from "zod";
import { CORRECTION_REFUSED_PARAM } from "../orders/refund-correction-rules";
import { recordCorrection, type CorrectionResult } from "../orders/refund-corrections-admin";
import { REFUND_FLASH } from "../orders/refund-rules";
import { recordRefund, type RefundResult } from "../orders/refunds-admin";
import { adminAction, formBody, type ActionRefusal } from "./admin-action";
import { orderParams } from "./order-actions";

/**
 * POST /api/admin/orders/<externalTransactionId>/refunds: a refund recorded through the one
 * back-office action (./admin-action.ts: the owner's session, the cross-site refusal, the capped
 * body), by the person signed in. A JSON client gets 201 `{ refund }` or the refusal; the order
 * page's form goes back to the page with the outcome in REFUND_FLASH's parameters. Units put back
 * in stock refresh the cached catalogue pages, as any stock change does; the shopper's mail about
 * the refund, when the order has an email, goes to `runJobs` (the route runs it after answering).
 * A refund's correcting entry (POST …/refunds/<number>/correction) goes the same way, to the same
 * part of the page.
 */

/** A note of 2000 characters and a reference of 200, each up to 4 bytes form-encoded, and a return's lines. */
const MAX_REFUND_BODY_BYTES = 64 * 1024;

const NOT_FOUND: RefundResult = { ok: false, status: 404, code: "not_found", message: "no such order" };

/** A body that could not be read: the reader's status and message, under the refund form's one code for bad input. */
const unreadable =
  (maxBytes: number) =>
  (read: ActionRefusal): ActionRefusal => ({
    ok: false,
    status: read.status,
    code: read.status === 413 ? "body_too_large" : read.code,
    message: read.status === 413 ? `the request exceeds ${maxBytes} bytes` : read.message,
    flash: "invalid_input",
  });

export async function recordOrderRefund(
  request: NextRequest,
  params: Promise<unknown>,
  deps: { db: Database; runJobs?: (ids: string[]) => void },
): Promise<Response> {
  const parsed = orderParams.safeParse(await params);
  return adminAction<RefundResult | ActionRefusal>(request, {
    // Unused for a malformed parameter: an unknown order is a 404 for a browser too.
    page: parsed.success ? orderPagePath(parsed.data.externalTransactionId) : "/admin",
    flash: REFUND_FLASH,
    body: formBody(MAX_REFUND_BODY_BYTES),
    bodyRefused: unreadable(MAX_REFUND_BODY_BYTES),
    action: async ({ fields }, { actor }) => {
      if (!parsed.success) return NOT_FOUND;
      const result = await recordRefund(deps.db, parsed.data.externalTransactionId, fields, actor);
      if (result.ok && result.mailJobId) deps.runJobs?.([result.mailJobId]);
      return result;
    },
    json: (result) => ({ status: 201, body: { refund: result.refund } }),
    changesShopPages: (result) => result.refund.lines.some((line) => line.restock),
  });
}

/** A correction's note of 2000 characters, each up to 4 bytes form-encoded, and its amount. */
const MAX_CORRECTION_BODY_BYTES = 16 * 1024;

const NOT_FOUND_FOR_CORRECTION: CorrectionResult = {
  ok: false,
  status: 404,
  code: "not_found",
  message: "no such order",
};
const NO_SUCH_REFUND: CorrectionResult = {
  ok: false,
  status: 404,
  code: "no_such_refund",
  message: "the order has no refund of that number",
};

/** The refund's number in the path: a malformed one is no refund of the order. */
const correctionParams = orderParams.extend({
  number: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/)
    .transform(Number),
});

/**
 * POST /api/admin/orders/<externalTransactionId>/refunds/<number>/correction: a correcting entry of
 * the order's refund `number` (lib/orders/refund-corrections-admin.ts). A JSON client gets 201
 * `{ correction }` or the refusal; the order page's form goes back to the page's refund section,
 * a refusal naming the refund (`correct=<number>`) so that its form opens again. No stock moves;
 * the shopper's mail about it goes to `runJobs`, as a refund's does.
 */
export async function recordOrderRefundCorrection(
  request: NextRequest,
  params: Promise<unknown>,
  deps: { db: Database; runJobs?: (ids: string[]) => void },
): Promise<Response> {
  const raw = await params;
  const order = orderParams.safeParse(raw);
  const parsed = correctionParams.safeParse(raw);
  return adminAction<CorrectionResult | ActionRefusal>(request, {
    page: order.success ? orderPagePath(order.data.externalTransactionId) : "/admin",
    flash: REFUND_FLASH,
    refusedFlash: { [CORRECTION_REFUSED_PARAM]: parsed.success ? parsed.data.number : undefined },
    body: formBody(MAX_CORRECTION_BODY_BYTES),
    bodyRefused: unreadable(MAX_CORRECTION_BODY_BYTES),
    action: async ({ fields }, { actor }) => {
      if (!parsed.success) return order.success ? NO_SUCH_REFUND : NOT_FOUND_FOR_CORRECTION;
      const { externalTransactionId, number } = parsed.data;
      const result = await recordCorrection(deps.db, externalTransactionId, number, fields, actor);
      if (result.ok && result.mailJobId) deps.runJobs?.([result.mailJobId]);
      return result;
    },
    json: (result) => ({ status: 201, body: { correction: result.correction } }),
    changesShopPages: false,
  });
}
