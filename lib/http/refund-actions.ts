import "server-only";
import type { NextRequest } from "next/server";
import type { Database } from "../db/client";
import { orderPagePath } from "../orders/order-flash";
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
 */

/** A note of 2000 characters and a reference of 200, each up to 4 bytes form-encoded, and a return's lines. */
const MAX_REFUND_BODY_BYTES = 64 * 1024;

const NOT_FOUND: RefundResult = { ok: false, status: 404, code: "not_found", message: "no such order" };

/** A body that could not be read: the reader's status and message, under the refund form's one code for bad input. */
const unreadable = (read: ActionRefusal): ActionRefusal => ({
  ok: false,
  status: read.status,
  code: read.status === 413 ? "body_too_large" : read.code,
  message: read.status === 413 ? `the request exceeds ${MAX_REFUND_BODY_BYTES} bytes` : read.message,
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
    bodyRefused: unreadable,
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
