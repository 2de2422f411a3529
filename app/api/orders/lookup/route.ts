import { NextResponse, type NextRequest } from "next/server";
import { refuseOverClientLimit } from "@/lib/http/client-limits";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { isFormPost, readFormOrJson, seeOther } from "@/lib/http/form-requests";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";
import { lookUpOrderWithLockOut } from "@/lib/orders/lookup";

// POST /api/orders/lookup: an order's number and the phone given at checkout → the order
// (lib/orders/lookup.ts). The form of /orders/lookup posts here and is sent on with a 303: to the
// order's page, or back to the form with what went wrong; a JSON client gets
// `{ externalTransactionId }`, or 404 `not_found` alike for an unknown number and a wrong phone.
// Every attempt counts against the client address's limit, first thing; wrong phones also count
// against the order number, whatever the address (a locked number answers as an unknown one).
export const dynamic = "force-dynamic";

/** A number and a phone: a few dozen bytes. */
const MAX_LOOKUP_BYTES = 2 * 1024;

const backToForm = (error: string, orderNumber?: unknown) => {
  const query = new URLSearchParams({ error });
  // The number goes back into the form; the phone, personal data, never goes into an address.
  if (typeof orderNumber === "string" && /^[#0-9A-Za-z_-]{1,60}$/.test(orderNumber.trim()))
    query.set("orderNumber", orderNumber.trim());
  return seeOther(`/orders/lookup?${query}`);
};

export async function POST(request: NextRequest): Promise<Response> {
  const form = isFormPost(request);
  const limited = await refuseOverClientLimit(request, {
    name: "order-lookup",
    pointsPerMinute: getEnv().rateLimits.orderLookupPerMinute,
    message: "too many order lookups from this address; please wait a minute and try again",
  });
  if (limited) return form ? backToForm("rate_limited") : limited;
  const body = await readFormOrJson(request, MAX_LOOKUP_BYTES);
  if (!body.ok) return form ? backToForm("invalid_input") : body.response;
  const orderNumber = (body.input as { orderNumber?: unknown } | null)?.orderNumber;
  try {
    const result = await lookUpOrderWithLockOut(db(), body.input);
    if (result.ok)
      return form
        ? seeOther(`/orders/${result.externalTransactionId}`)
        : NextResponse.json({ externalTransactionId: result.externalTransactionId });
    if (form) return backToForm(result.code, orderNumber);
    return jsonError(result.code === "not_found" ? 404 : 400, result.code, result.message);
  } catch (error) {
    consoleLogger("error", "order.lookup_failed", { error: errorKind(error) });
    return form
      ? backToForm("unavailable", orderNumber)
      : jsonError(503, "unavailable", "orders cannot be looked up right now; please try again");
  }
}
